import path from 'node:path';
import net, { type AddressInfo } from 'node:net';
import ssh2, { type AuthContext, type ClientInfo, type Connection } from 'ssh2';
import type { Logger } from 'pino';
import type { DaemonConfig } from '../config/config.ts';
import { filesOf, runtimeOwner } from '../fs/server-files.ts';
import { RemoteError, type RemoteClient, type SftpGrant } from '../panel/client.ts';
import type { ServerManager } from '../servers/manager.ts';
import type { ActivityBatch } from '../panel/activity-batch.ts';
import { loadHostKey } from './host-key.ts';
import { LoginGate, type SftpLoginLimits } from './login-gate.ts';
import { serveSftp } from './session.ts';

/** `<panel username>.<8-character short server id>` (§8.12); anything else never reaches the panel. */
const USERNAME = /^(.+)\.([a-z0-9]{8})$/i;
/** Failed authentication attempts per connection (each refused key counts) before it is closed. */
const MAX_AUTH_ATTEMPTS = 6;
const METHODS: ('password' | 'publickey')[] = ['password', 'publickey'];

export interface SftpServerDeps {
  config: DaemonConfig;
  manager: ServerManager;
  remote: RemoteClient;
  activity: ActivityBatch;
  log: Logger;
  /** Login deadline and caps on waiting connections (default SFTP_LOGIN_LIMITS). */
  loginLimits?: Partial<SftpLoginLimits>;
}

export interface SftpServer {
  /** Listen on `port` (default: `system.sftp.bind_port`; 0 picks one); returns the port. */
  listen(port?: number): Promise<number>;
  close(): Promise<void>;
  /** `SHA256:…` of the host key, once listening */
  fingerprint(): string | null;
  /**
   * End every SFTP connection into `serverUuid`: its users must log in again, and the panel checks
   * their access anew (permissions are otherwise fixed for a session, GHSA-8c39-xppg-479c).
   */
  endSessions(serverUuid: string): number;
  /**
   * End `user`'s SFTP connections into `servers` (every server when none are named): the panel
   * withdrew their access (`POST /api/deauthorize-user`, GHSA-hr7j-63v7-vj7g). Returns how many.
   */
  endUserSessions(user: string, servers?: readonly string[]): number;
}

/**
 * The node's SFTP server (§8.12): SSH with password or public-key login checked by the panel, only
 * the `sftp` subsystem, each session confined to one server's jail with the permissions the panel
 * granted at login.
 */
export function createSftpServer(deps: SftpServerDeps): SftpServer {
  const { config, manager, remote, log } = deps;
  const owner = runtimeOwner(config.runtime);
  /** open connections → the server and user their login was granted for (null until authenticated) */
  const connections = new Map<Connection, { server: string; user: string } | null>();
  // SSH sees only connections the gate admits; it ends those still not in a session at the deadline.
  const gate = new LoginGate(deps.loginLimits, (ip) =>
    log.info({ ip }, 'sftp connection closed: no session within the login deadline'),
  );

  const onConnection = (client: Connection, info: ClientInfo) => {
    connections.set(client, null);
    const ip = info.ip;
    let failures = 0;
    let grant: SftpGrant | null = null;
    // Panel answers per offered key, so the signed retry does not ask again.
    const keyAnswers = new Map<string, SftpGrant | null>();

    const ask = async (type: 'password' | 'public_key', username: string, secret: string) => {
      try {
        return await remote.sftpAuth({
          type,
          username,
          password: secret,
          ip: ip.includes(':') ? `[${ip}]:${info.port}` : `${ip}:${info.port}`,
          session_id: '',
          client_version: Buffer.from(info.header.identRaw).toString('base64'),
        });
      } catch (err) {
        if (!(err instanceof RemoteError && err.status >= 400 && err.status < 500)) {
          log.error({ err, ip }, 'sftp authentication could not be checked with the panel');
        }
        return null;
      }
    };

    /** The grant, if it names a server on this node that is usable. */
    const usable = (g: SftpGrant | null): SftpGrant | null => {
      if (!g) return null;
      const server = manager.get(g.server);
      if (!server || server.suspended) return null;
      return g;
    };

    const authenticate = async (ctx: AuthContext): Promise<boolean | 'query'> => {
      const m = USERNAME.exec(ctx.username);
      if (!m) return false;
      if (ctx.method === 'password') {
        grant = usable(await ask('password', ctx.username, ctx.password));
        return grant !== null;
      }
      if (ctx.method !== 'publickey') return false;
      const parsed = ssh2.utils.parseKey(ctx.key.data);
      if (parsed instanceof Error) return false;
      const line = `${parsed.type} ${parsed.getPublicSSH().toString('base64')}\n`;
      const cacheKey = `${ctx.username}\n${line}`;
      let answer = keyAnswers.get(cacheKey);
      if (answer === undefined) {
        answer = usable(await ask('public_key', ctx.username, line));
        keyAnswers.set(cacheKey, answer);
      }
      if (!answer) return false;
      if (!ctx.signature || !ctx.blob) return 'query';
      if (parsed.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) return false;
      grant = answer;
      return true;
    };

    client.on('authentication', (ctx) => {
      if (ctx.method === 'none') {
        ctx.reject(METHODS);
        return;
      }
      const refuse = () => {
        if (++failures >= MAX_AUTH_ATTEMPTS) {
          ctx.reject([]);
          client.end();
          return;
        }
        ctx.reject(METHODS);
      };
      authenticate(ctx)
        .catch((err: unknown) => {
          log.error({ err }, 'sftp authentication failed');
          return false;
        })
        .then((result) => {
          // The panel may answer after the client has gone: nothing is left to accept.
          if (!connections.has(client)) {
            log.debug({ ip }, 'sftp login answered after the client left');
            return;
          }
          if (result) ctx.accept();
          else refuse();
        })
        // Answering a connection that broke meanwhile must not end the daemon (CVE-2026-52856).
        .catch((err: unknown) => log.debug({ err, ip }, 'sftp login answer not delivered'));
    });

    client.on('ready', () => {
      const g = grant;
      if (!g || !connections.has(client)) {
        client.end();
        return;
      }
      connections.set(client, { server: g.server, user: g.user });
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('sftp', (acceptSftp, rejectSftp) => {
          const server = manager.get(g.server);
          if (!server) {
            rejectSftp();
            return;
          }
          gate.settle(ip, info.port);
          serveSftp(acceptSftp(), {
            server,
            files: filesOf(server, owner, g.filePaths),
            permissions: g.permissions,
            folders: g.filePaths,
            readOnly: config.system.sftp.read_only,
            log,
            activity: (event, metadata) =>
              deps.activity.record({ user: g.user, server: g.server, event, metadata, ip }),
          });
        });
        // pty, shell, exec, env, … have no listener: ssh2 refuses them.
      });
    });

    client.on('error', (err) => log.debug({ err, ip }, 'sftp connection error'));
    client.on('close', () => {
      connections.delete(client);
      log.debug({ ip, port: info.port }, 'sftp connection closed');
    });
  };

  /** End the authenticated connections whose grant matches; returns how many. */
  const endWhere = (matches: (granted: { server: string; user: string }) => boolean): number => {
    let n = 0;
    for (const [c, granted] of connections) {
      if (!granted || !matches(granted)) continue;
      c.end();
      n++;
    }
    return n;
  };

  let tcp: net.Server | null = null;
  let fingerprint: string | null = null;
  return {
    fingerprint: () => fingerprint,
    endSessions(serverUuid) {
      const n = endWhere((g) => g.server === serverUuid);
      if (n > 0) log.info({ server: serverUuid, sessions: n }, 'sftp sessions ended: access changed');
      return n;
    },
    endUserSessions(user, servers) {
      const n = endWhere((g) => g.user === user && (!servers || servers.includes(g.server)));
      if (n > 0) log.info({ user, sessions: n }, 'sftp sessions ended: user deauthorized');
      return n;
    },
    async listen(port = config.system.sftp.bind_port) {
      // The host key is read (or made) only when SFTP is really served.
      const hostKey = loadHostKey(path.join(config.system.root_directory, '.sftp'));
      fingerprint = hostKey.fingerprint;
      log.info({ fingerprint, key: hostKey.publicLine }, 'sftp host key');
      const ssh = new ssh2.Server({ hostKeys: [hostKey.openssh], ident: 'Talon' }, onConnection);
      // Our own listener, so a connection is counted and timed before SSH reads a byte of it.
      const server = net.createServer((socket) => {
        if (!gate.admit(socket)) {
          // debug: a flood of refusals must not flood the log too
          log.debug({ ip: socket.remoteAddress }, 'sftp connection refused: too many waiting to log in');
          socket.destroy();
          return;
        }
        ssh.injectSocket(socket);
      });
      tcp = server;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, config.system.sftp.bind_address, () => {
          server.off('error', reject);
          resolve();
        });
      });
      server.on('error', (err: Error) => log.error({ err }, 'sftp server error'));
      const bound = (server.address() as AddressInfo).port;
      log.info({ address: config.system.sftp.bind_address, port: bound }, 'sftp listening');
      return bound;
    },
    async close() {
      for (const c of connections.keys()) c.end();
      gate.close();
      const server = tcp;
      if (!server?.listening) return;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
