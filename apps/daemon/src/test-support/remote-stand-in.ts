import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * STAND-IN for the panel's `/api/remote` API (Wings protocol §5), used by the daemon's tests until
 * the panel implements those endpoints and panel ⇄ daemon tests exist. It serves fixture server
 * configurations and records what the daemon reports. It checks the daemon's
 * `Authorization: Bearer <token_id>.<token>` like the panel will. It is test support only: never
 * used by the daemon itself.
 */
export interface FixtureServer {
  settings: Record<string, unknown>;
  process_configuration: Record<string, unknown>;
  install: { container_image: string; entrypoint: string; script: string };
}

/** A login the stand-in's `POST /api/remote/sftp/auth` accepts (§5.4). */
export interface SftpAccount {
  /** panel username; the login is `<username>.<first 8 characters of server>` */
  username: string;
  password: string;
  /** `<type> <base64>` lines */
  publicKeys: string[];
  server: string;
  user: string;
  permissions: string[];
  /** folders the session is limited to (our `file_paths` extension); absent: the whole server */
  filePaths?: string[];
}

export class RemoteStandIn {
  readonly servers = new Map<string, FixtureServer>();
  readonly sftpAccounts: SftpAccount[] = [];
  readonly sftpAttempts: { type: string; username: string }[] = [];
  readonly activity: { event: string; server: string; user: string | null; metadata: unknown }[] = [];
  readonly installReports: { uuid: string; successful: boolean; reinstall: boolean }[] = [];
  readonly backupReports: { uuid: string; body: Record<string, unknown> }[] = [];
  /** Answer backup reports with this status (a panel that refuses them). */
  backupReportStatus = 204;
  readonly restoreReports: { uuid: string; successful: boolean }[] = [];
  /** While set, restore reports wait for it before being answered (a restore held open). */
  restoreReportGate: Promise<void> | null = null;
  /** While set, SFTP logins wait for it before being answered (a slow panel). */
  sftpAuthGate: Promise<void> | null = null;
  /** Every activity request's entries, in order, whatever the answer was. */
  readonly activityBatches: RemoteStandIn['activity'][] = [];
  /** The status for the next activity requests, first to last (then 204): a panel that fails or refuses. */
  readonly activityStatuses: number[] = [];
  readonly requests: string[] = [];
  resets = 0;
  private http: HttpServer | null = null;

  constructor(
    private readonly tokenId: string,
    private readonly token: string,
  ) {}

  async start(): Promise<string> {
    this.http = createServer((req, res) => {
      void this.handle(req).then(({ status, body }) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(body === undefined ? '' : JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => this.http!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    if (!this.http) return;
    this.http.closeAllConnections();
    await new Promise((r) => this.http!.close(r));
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body?: unknown }> {
    const url = new URL(req.url ?? '/', 'http://x');
    this.requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.headers.authorization !== `Bearer ${this.tokenId}.${this.token}`) {
      return {
        status: 403,
        body: { errors: [{ code: 'AccessDenied', status: '403', detail: 'bad token' }] },
      };
    }
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const p = url.pathname;
    if (req.method === 'GET' && p === '/api/remote/servers') {
      const perPage = Number(url.searchParams.get('per_page') ?? 50);
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
      const all = [...this.servers.entries()];
      const last = Math.max(1, Math.ceil(all.length / perPage));
      const slice = all.slice((page - 1) * perPage, page * perPage);
      return {
        status: 200,
        body: {
          data: slice.map(([uuid, s]) => ({
            uuid,
            settings: s.settings,
            process_configuration: s.process_configuration,
          })),
          meta: { current_page: page, last_page: last, per_page: perPage, total: all.length },
        },
      };
    }
    if (req.method === 'POST' && p === '/api/remote/servers/reset') {
      this.resets++;
      return { status: 204 };
    }
    if (req.method === 'POST' && p === '/api/remote/activity') {
      const b = JSON.parse(raw) as { data: RemoteStandIn['activity'] };
      this.activityBatches.push(b.data);
      const status = this.activityStatuses.shift() ?? 204;
      if (status >= 300) {
        return { status, body: { errors: [{ code: 'Refused', status: String(status), detail: 'stand-in' }] } };
      }
      this.activity.push(...b.data);
      return { status };
    }
    if (req.method === 'POST' && p === '/api/remote/sftp/auth') {
      const b = JSON.parse(raw) as { type: string; username: string; password: string };
      this.sftpAttempts.push({ type: b.type, username: b.username });
      if (this.sftpAuthGate) await this.sftpAuthGate;
      const refused = {
        status: 403,
        body: { errors: [{ code: 'HttpForbiddenException', status: '403', detail: 'bad credentials' }] },
      };
      const dot = b.username.lastIndexOf('.');
      const account = this.sftpAccounts.find(
        (a) => a.username === b.username.slice(0, dot) && a.server.slice(0, 8) === b.username.slice(dot + 1),
      );
      if (!account) return refused;
      const good =
        b.type === 'password'
          ? b.password === account.password
          : account.publicKeys.some((k) => k.trim() === b.password.trim());
      if (!good) return refused;
      return {
        status: 200,
        body: {
          server: account.server,
          user: account.user,
          permissions: account.permissions,
          ...(account.filePaths ? { file_paths: account.filePaths } : {}),
        },
      };
    }
    const restored = /^\/api\/remote\/backups\/([^/]+)\/restore$/.exec(p);
    if (req.method === 'POST' && restored) {
      if (this.restoreReportGate) await this.restoreReportGate;
      const b = JSON.parse(raw) as { successful: boolean };
      this.restoreReports.push({ uuid: restored[1]!, successful: b.successful });
      return { status: 204 };
    }
    const backup = /^\/api\/remote\/backups\/([^/]+)$/.exec(p);
    if (req.method === 'POST' && backup) {
      this.backupReports.push({ uuid: backup[1]!, body: JSON.parse(raw) as Record<string, unknown> });
      return { status: this.backupReportStatus };
    }
    const m = /^\/api\/remote\/servers\/([^/]+)(\/install)?$/.exec(p);
    const s = m ? this.servers.get(m[1]!) : undefined;
    if (!m || !s)
      return { status: 404, body: { errors: [{ code: 'NotFound', status: '404', detail: 'not found' }] } };
    if (req.method === 'GET' && !m[2])
      return { status: 200, body: { settings: s.settings, process_configuration: s.process_configuration } };
    if (req.method === 'GET') return { status: 200, body: s.install };
    if (req.method === 'POST' && m[2]) {
      const b = JSON.parse(raw) as { successful: boolean; reinstall: boolean };
      this.installReports.push({ uuid: m[1]!, successful: b.successful, reinstall: b.reinstall });
      return { status: 204 };
    }
    return { status: 405 };
  }
}
