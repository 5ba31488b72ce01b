import { can } from '@talon/shared';
import { parseFolderScope, type FolderScope } from '@talon/shared/files/scope';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { errors, HttpError } from '../http/errors.ts';
import { check } from '../http/input.ts';
import { hashPassword, verifyPassword } from '../lib/passwords.ts';
import {
  conflictError,
  serverConflict,
  socketPermissions,
  type ServerAccess,
} from '../modules/servers/server-access.ts';
import { parseSshPublicKey } from '../modules/ssh-keys/ssh-key-parser.ts';
import { requireNode } from './remote-auth.ts';

/** Failed attempts allowed per (server part, caller IP) and window (Wings protocol §5.4). */
export const SFTP_AUTH_ATTEMPTS = 5;
const SFTP_AUTH_WINDOW_MS = 60_000;
const BAD_CREDENTIALS = 'Authorization credentials were not correct, please try again.';

const badCredentials = () => errors.forbidden(BAD_CREDENTIALS);

interface SftpAuthBody {
  type: 'password' | 'public_key';
  username: string;
  password: string;
  ip?: string;
}

/** The SFTP client's address as the daemon reports it (`ip:port`, `[v6]:port`), without the port. */
function clientAddress(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') return '-';
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(raw);
  if (v6) return v6[1]!.toLowerCase();
  const v4 = /^([^:]+):\d+$/.exec(raw);
  return (v4 ? v4[1]! : raw).toLowerCase().slice(0, 64);
}

let dummyHash: Promise<string> | null = null;

/**
 * `POST /api/remote/sftp/auth` (§5.4): a daemon asks whether `<user>.<server>` may open an SFTP
 * session with a password or a public key. Registered inside the node-authenticated scope.
 */
export function sftpAuthRoute(app: FastifyInstance, ctx: AppContext) {
  const servers = ctx.repositories.servers;
  const throttle = ctx.authThrottle;

  app.post('/api/remote/sftp/auth', async (req) => {
    const node = requireNode(req);
    const body = check<SftpAuthBody>(req.body, {
      type: 'required|in:password,public_key',
      username: 'required|string',
      password: 'required|string',
    });
    // Split at the last dot: panel usernames may contain dots.
    const dot = body.username.lastIndexOf('.');
    const login = dot > 0 ? body.username.slice(0, dot) : '';
    const identifier = dot > 0 ? body.username.slice(dot + 1) : '';
    if (!login || !identifier) {
      throw errors.badRequest('No valid server identifier was included in the request.');
    }

    // Per server, calling node and SFTP client: the original counts per node only, so a few bad
    // logins from anyone would lock every user of that server on the node out.
    const key = `sftp:${identifier.toLowerCase()}|${req.ip}|${clientAddress(body.ip)}`;
    // Counted as a failure BEFORE the (slow) check, in one atomic count-and-read: a check-then-count
    // lets every parallel guess through while the others are still hashing. A success clears the
    // count; an attempt that is not a failure (an unregistered key) takes its count back.
    const seen = await throttle.hit(key, SFTP_AUTH_WINDOW_MS);
    if (seen.hits > SFTP_AUTH_ATTEMPTS) {
      throw new HttpError(
        429,
        'TooManyRequestsHttpException',
        `Too many login attempts for this account, please try again in ${seen.retryAfter} seconds.`,
        { 'retry-after': String(seen.retryAfter) },
      );
    }
    const fail = (): never => {
      throw badCredentials();
    };

    const user = login.includes('@') ? undefined : await ctx.repositories.users.findByLogin(login);
    const server = await servers.findByIdentifier(identifier.toLowerCase());
    if (!user || !server || server.node_id !== node.id) {
      // Same work as a real password check, so response times do not tell which names exist.
      if (body.type === 'password') {
        dummyHash ??= hashPassword('not a real password');
        await verifyPassword(await dummyHash, body.password);
      }
      return fail();
    }

    if (body.type === 'password') {
      if (!(await verifyPassword(user.password, body.password))) {
        await ctx.services.activity.log(
          'auth:sftp.fail',
          { userId: user.id, apiKeyId: null, ip: req.ip },
          [{ type: 'user', id: user.id }],
          { using_sftp: true },
        );
        return fail();
      }
    } else {
      const parsed = parseSshPublicKey(body.password);
      if (typeof parsed === 'string') return fail();
      // A valid key that is simply not registered does not count: clients offer several keys.
      if (!(await ctx.repositories.sshKeys.fingerprintExists(user.id, parsed.fingerprint))) {
        await throttle.undo(key);
        throw badCredentials();
      }
    }
    await throttle.clear(key);

    const isOwner = server.owner_id === user.id;
    let permissions: string[];
    let folders: FolderScope = null;
    if (isOwner || user.root_admin === 1) {
      permissions = ['*'];
    } else {
      const subuser = await servers.findSubuser(server.id, user.id);
      permissions = subuser ? (JSON.parse(subuser.permissions) as string[]) : [];
      folders = parseFolderScope(subuser?.file_paths);
      if (!subuser || !can(permissions, 'file.sftp')) {
        await ctx.services.activity.log(
          'server:sftp.denied',
          { userId: user.id, apiKeyId: null, ip: req.ip },
          [
            { type: 'server', id: server.id },
            { type: 'user', id: user.id },
          ],
          { using_sftp: true },
        );
        throw errors.forbidden('You do not have permission to access SFTP for this server.');
      }
    }
    const conflict = serverConflict(server, node.maintenance_mode === 1);
    if (conflict) throw conflictError(conflict);

    const access: ServerAccess = { server, user, isOwner, permissions };
    return {
      server: server.uuid,
      user: user.uuid,
      permissions: socketPermissions(access),
      // Our extension (Wings ignores it): the folders the daemon keeps this session inside.
      ...(folders === null ? {} : { file_paths: folders }),
    };
  });
}
