import { randomUUID } from 'node:crypto';
import { ALL_PERMISSION_KEYS, WILDCARD, type CustomRule } from '@talon/shared';
import { isNormalisedFolderPath } from '@talon/shared/validation/subusers';
import { insideScope } from '@talon/shared/files/scope';
import type { Server, User } from '../../db/types.ts';
import { errors, HttpError } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { randomAlnum } from '../../lib/crypto.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { DeauthorizeService } from '../deauthorize/deauthorize.service.ts';
import type { PermittedServerAccess } from '../servers/server-access.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { WelcomeMail } from '../users/welcome-mail.ts';
import type { SubusersRepository, SubuserWithUser } from './subusers.repository.ts';

const CATALOGUE = new Set<string>(ALL_PERMISSION_KEYS);
const SOCKET_PERMISSION = 'websocket.connect';

/**
 * `file_paths` entries (our extension): the shared folder rule, reported per index (`file_paths.2`);
 * the length is the `max` rule's.
 */
const FOLDER_PATH: CustomRule = {
  name: 'folder_path',
  check: (value) =>
    typeof value !== 'string' || isNormalisedFolderPath(value)
      ? null
      : 'The :attribute must be a folder from the server root, such as /plugins: a leading slash, no trailing slash, no empty, "." or ".." parts.',
};

const FILE_PATHS_RULES = {
  file_paths: 'sometimes|nullable|array|max:20',
  'file_paths.*': ['string', 'max:255', FOLDER_PATH],
} as const;

const CREATE_RULES = {
  email: 'required|email|between:1,191',
  permissions: 'required|array',
  'permissions.*': 'string',
  ...FILE_PATHS_RULES,
} as const;

const UPDATE_RULES = {
  permissions: 'required|array',
  'permissions.*': 'string',
  ...FILE_PATHS_RULES,
} as const;

interface SubuserBody {
  email: string;
  permissions: string[];
  file_paths?: string[] | null;
}

const cannotGrant = () =>
  new HttpError(
    403,
    'HttpForbiddenException',
    'Cannot assign permissions to a subuser that your account does not actively possess.',
  );

/**
 * Subusers of a server (reference §3.3 "Subusers"). The route guard has resolved the server and
 * checked the route's `user.*` permission; the rules about what the caller may grant, and to whom,
 * are here.
 */
export class SubusersService {
  constructor(
    private readonly repo: SubusersRepository,
    private readonly users: UsersRepository,
    private readonly deauthorize: DeauthorizeService,
    private readonly activity: ActivityService,
    private readonly welcome: WelcomeMail,
  ) {}

  list(access: PermittedServerAccess): Promise<SubuserWithUser[]> {
    return this.repo.listForServer(access.server.id);
  }

  /** The subuser named in the path (a user uuid), or 404 (reference §1.7). */
  async find(server: Pick<Server, 'id'>, userUuid: string): Promise<SubuserWithUser> {
    const found = await this.repo.findByUserUuid(server.id, userUuid);
    if (!found) throw errors.notFound();
    return found;
  }

  /** Nobody reads, edits or removes their own subuser entry (403). */
  refuseSelf(access: PermittedServerAccess, target: SubuserWithUser): void {
    if (target.user.id === access.user.id) throw errors.forbidden();
  }

  async create(access: PermittedServerAccess, body: unknown, actor: ActivityActor): Promise<SubuserWithUser> {
    await this.checkGrantable(access, body);
    const input = check<SubuserBody>(body, CREATE_RULES);
    const permissions = storedPermissions(listOf(input.permissions));
    const filePaths = folderList(input.file_paths);
    const { server } = access;
    let user = await this.users.findByEmail(input.email);
    if (user?.id === server.owner_id) {
      throw errors.display(
        'You cannot add the server owner as a subuser for this server.',
        'UserIsServerOwnerException',
      );
    }
    if (user && (await this.repo.find(server.id, user.id))) throw subuserExists();
    let created = false;
    if (!user) ({ user, created } = await this.createAccount(input.email));
    const subuser = await this.repo.insert({
      serverId: server.id,
      userId: user.id,
      permissions,
      filePaths,
      at: nowIso(),
    });
    if (!subuser) throw subuserExists();
    if (created) {
      await this.welcome.send(user, {
        withSetupLink: true,
        // The account's name is the placeholder "Server Subuser": greet the person by their username.
        greet: user.username,
        reason: `${access.user.username} gave you access to the server "${server.name}".`,
      });
    }
    await this.activity.log('server:subuser.create', actor, subjects(server, user), {
      email: user.email,
      permissions,
      ...(filePaths ? { file_paths: filePaths } : {}),
    });
    return { user, subuser };
  }

  /**
   * New permissions (and folders, when `file_paths` is sent; absent keeps them). When anything
   * changed, the node ends the user's open consoles and SFTP sessions on this server and refuses
   * their earlier tokens, so what they do next is checked against the new grant.
   */
  async update(
    access: PermittedServerAccess,
    target: SubuserWithUser,
    body: unknown,
    actor: ActivityActor,
  ): Promise<SubuserWithUser> {
    this.refuseSelf(access, target);
    const filePathsBefore = target.subuser.file_paths;
    await this.checkGrantable(access, body, parseFolders(filePathsBefore));
    const input = check<Omit<SubuserBody, 'email'>>(body, UPDATE_RULES);
    const before = JSON.parse(target.subuser.permissions) as string[];
    const permissions = storedPermissions(listOf(input.permissions));
    const filePaths = 'file_paths' in input ? folderList(input.file_paths) : parseFolders(filePathsBefore);
    const changed =
      sortedKey(before) !== sortedKey(permissions) ||
      (filePaths === null ? null : JSON.stringify(filePaths)) !== filePathsBefore;
    const subuser = await this.repo.update(target.subuser.id, { permissions, filePaths, at: nowIso() });
    if (changed) await this.deauthorize.onServer(target.user, access.server, access.node);
    await this.activity.log('server:subuser.update', actor, subjects(access.server, target.user), {
      email: target.user.email,
      old: before,
      new: permissions,
      ...(filePaths || filePathsBefore ? { file_paths: filePaths } : {}),
      revoked: changed,
    });
    return { user: target.user, subuser };
  }

  async delete(access: PermittedServerAccess, target: SubuserWithUser, actor: ActivityActor): Promise<void> {
    this.refuseSelf(access, target);
    await this.repo.delete(target.subuser.id);
    await this.deauthorize.onServer(target.user, access.server, access.node);
    await this.activity.log('server:subuser.delete', actor, subjects(access.server, target.user), {
      email: target.user.email,
      revoked: true,
    });
  }

  /**
   * Nobody grants what they do not hold (reference §3.3): a subuser may only hand out keys of
   * their own list, checked on the list as sent (before unknown keys are dropped). Owners and root
   * admins (both hold `*`) may grant anything. Our extension adds the same rule for folders: a
   * subuser whose file access is limited to folders can only give file permissions limited to
   * folders inside their own. `kept` is what an update leaves when `file_paths` is not sent.
   */
  private async checkGrantable(
    access: PermittedServerAccess,
    body: unknown,
    kept: string[] | null = null,
  ): Promise<void> {
    const held = access.permissions;
    if (held[0] === WILDCARD) return;
    const sent = (body ?? {}) as { permissions?: unknown; file_paths?: unknown };
    const requested = listOf(sent.permissions);
    if (requested.some((p) => typeof p !== 'string' || !held.includes(p))) throw cannotGrant();
    if (!requested.some((p) => typeof p === 'string' && p.startsWith('file.'))) return;
    const own = parseFolders((await this.repo.find(access.server.id, access.user.id))?.file_paths ?? null);
    if (own === null) return;
    const folders = 'file_paths' in sent ? listOf(sent.file_paths) : kept;
    const inside = (path: unknown) => typeof path === 'string' && insideScope(own, path);
    // No folders (null or none listed) would be the whole server: more than the caller holds.
    if (!folders || folders.length === 0 || !folders.every(inside)) throw cannotGrant();
  }

  /**
   * A new account for an invited email (reference §3.3): username from the email's local part,
   * random password (the welcome mail's link sets a real one), named "Server Subuser". Should a
   * request for the same email have made it a moment ago, that account is used (`created` false).
   */
  private async createAccount(email: string): Promise<{ user: User; created: boolean }> {
    const base = usernameBase(email);
    for (let attempt = 0; ; attempt++) {
      const username = `${base}${randomAlnum(3)}`.toLowerCase();
      if (await this.users.usernameTaken(username)) {
        if (attempt < 10) continue;
        throw new Error('no free username for a new subuser account');
      }
      const at = nowIso();
      try {
        const user = await this.users.insert({
          uuid: randomUUID(),
          external_id: null,
          username,
          email: email.toLowerCase(),
          name_first: 'Server',
          name_last: 'Subuser',
          password: await hashPassword(randomAlnum(48)),
          language: 'en',
          root_admin: 0,
          use_totp: 0,
          totp_secret: null,
          totp_authenticated_at: null,
          totp_last_step: null,
          gravatar: 1,
          created_at: at,
          updated_at: at,
        });
        return { user, created: true };
      } catch (err) {
        // The unique email (or, rarely, username) was taken in between: another request won.
        const existing = await this.users.findByEmail(email);
        if (existing) return { user: existing, created: false };
        if (attempt < 10 && (await this.users.usernameTaken(username))) continue;
        throw err;
      }
    }
  }
}

/**
 * What is stored for a requested list (reference §3.3, §4): known catalogue keys in request order,
 * without repeats, and `websocket.connect` added when absent.
 */
export function storedPermissions(requested: readonly string[]): string[] {
  const kept = [...new Set(requested.filter((p) => CATALOGUE.has(p)))];
  if (!kept.includes(SOCKET_PERMISSION)) kept.push(SOCKET_PERMISSION);
  return kept;
}

/**
 * The local part of an email with everything outside `[A-Za-z0-9_.-]` removed, cut to 64 (reference
 * §3.3). Leading dots, dashes and underscores are dropped too, as our usernames start with a letter
 * or digit; the three random characters added after it end it with one.
 */
export function usernameBase(email: string): string {
  const local = email.slice(0, email.lastIndexOf('@'));
  return local
    .replace(/[^A-Za-z0-9_.-]/gu, '')
    .slice(0, 64)
    .replace(/^[_.-]+/u, '');
}

/**
 * The values of a body list. The `array` rule (as Laravel's) also lets a JSON object through; its
 * values are the list then.
 */
function listOf<T = unknown>(value: unknown): T[] {
  if (Array.isArray(value)) return value as T[];
  return value !== null && typeof value === 'object' ? Object.values(value as Record<string, T>) : [];
}

/** The folders to store: none listed (null or empty) is the whole server (null); repeats dropped. */
function folderList(sent: string[] | null | undefined): string[] | null {
  const folders = listOf<string>(sent);
  return folders.length > 0 ? [...new Set(folders)] : null;
}

function parseFolders(stored: string | null): string[] | null {
  return stored === null ? null : (JSON.parse(stored) as string[]);
}

function sortedKey(permissions: readonly string[]): string {
  return JSON.stringify([...permissions].sort());
}

function subjects(server: Pick<Server, 'id'>, user: Pick<User, 'id'>) {
  return [
    { type: 'server', id: server.id },
    { type: 'user', id: user.id },
  ];
}

function subuserExists(): HttpError {
  return errors.display(
    'A user with that email address is already assigned as a subuser for this server.',
    'ServerSubuserExistsException',
  );
}
