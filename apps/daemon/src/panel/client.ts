import {
  installScriptSchema,
  remoteServerPageSchema,
  remoteServerSchema,
  type BackupReport,
  type InstallReport,
  type InstallScript,
  type RemoteServer,
} from '@talon/shared';
import { isUuid } from '../fs/paths.ts';
import { httpRequest, type HttpAnswer } from './http-request.ts';
import { cleanServerPath } from '@talon/shared/files/scope';

/** A failed call to the panel's remote API; `status` is 0 for network errors and timeouts. */
export class RemoteError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface RemoteClientOptions {
  baseUrl: string;
  tokenId: string;
  token: string;
  /** Per-request timeout, seconds. */
  timeoutSeconds: number;
  /** Give up retrying after this long (network errors and 5xx only; 4xx is final). */
  retryForMs?: number;
}

/** An activity entry for `POST /api/remote/activity` (§5.10). */
export interface ActivityEntry {
  user: string | null;
  server: string;
  event: string;
  metadata: Record<string, unknown> | null;
  ip: string | null;
  timestamp: string;
}

/** `POST /api/remote/sftp/auth` (§5.4). */
export interface SftpAuthRequest {
  type: 'password' | 'public_key';
  username: string;
  /** the password, or the public key as an authorized_keys line */
  password: string;
  ip: string;
  session_id: string;
  client_version: string;
}

export interface SftpGrant {
  server: string;
  user: string;
  permissions: string[];
  /** Our extension (`file_paths`): the only folders the session may use; null = the whole server */
  filePaths: string[] | null;
}

/**
 * The only code that calls the panel (`/api/remote`, Wings protocol §5). Every call has a timeout;
 * network errors and 5xx answers are retried with a growing, jittered delay so a daemon booting
 * before its panel waits for it instead of failing.
 */
export class RemoteClient {
  private readonly base: string;

  constructor(private readonly opts: RemoteClientOptions) {
    this.base = `${opts.baseUrl.replace(/\/+$/, '')}/api/remote`;
  }

  async listServers(
    perPage: number,
  ): Promise<{ uuid: string; config: RemoteServer | null; error?: string }[]> {
    const first = remoteServerPageSchema.parse(
      await this.request('GET', `/servers?page=0&per_page=${perPage}`),
    );
    const pages = [first];
    const rest: Promise<unknown>[] = [];
    for (let p = first.meta.current_page + 1; p <= first.meta.last_page; p++) {
      rest.push(this.request('GET', `/servers?page=${p}&per_page=${perPage}`));
    }
    for (const body of await Promise.all(rest)) pages.push(remoteServerPageSchema.parse(body));
    return pages.flatMap((page) =>
      page.data.map((entry) => {
        const parsed = remoteServerSchema.safeParse({
          settings: entry.settings,
          process_configuration: entry.process_configuration,
        });
        if (!parsed.success) return { uuid: entry.uuid, config: null, error: parsed.error.message };
        // The uuid names the server's directory: anything else is refused here, not at boot.
        if (!isUuid(parsed.data.settings.uuid)) {
          return { uuid: entry.uuid, config: null, error: 'settings.uuid is not a server uuid' };
        }
        return { uuid: entry.uuid, config: parsed.data };
      }),
    );
  }

  async getServer(uuid: string): Promise<RemoteServer> {
    return remoteServerSchema.parse(await this.request('GET', `/servers/${encodeURIComponent(uuid)}`));
  }

  async getInstallScript(uuid: string): Promise<InstallScript> {
    return installScriptSchema.parse(
      await this.request('GET', `/servers/${encodeURIComponent(uuid)}/install`),
    );
  }

  async reportInstall(uuid: string, report: InstallReport): Promise<void> {
    await this.request('POST', `/servers/${encodeURIComponent(uuid)}/install`, report);
  }

  /** `POST /backups/<uuid>` (§5.9): a backup's result. */
  async reportBackup(uuid: string, report: BackupReport): Promise<void> {
    await this.request('POST', `/backups/${encodeURIComponent(uuid)}`, report);
  }

  /** `POST /backups/<uuid>/restore` (§5.9): a restore's result. */
  async reportRestore(uuid: string, successful: boolean): Promise<void> {
    await this.request('POST', `/backups/${encodeURIComponent(uuid)}/restore`, { successful });
  }

  async resetStates(): Promise<void> {
    await this.request('POST', '/servers/reset', null);
  }

  /**
   * One try, not retried here: the activity queue (`activity-batch.ts`) keeps a failed batch and
   * decides when to try again, so a batch is never sent twice at once.
   */
  async sendActivity(data: ActivityEntry[]): Promise<void> {
    await this.once('POST', '/activity', { data });
  }

  /**
   * Ask the panel whether an SFTP login may proceed. Not retried: a client is waiting, and a 4xx
   * (bad credentials, denied, throttled) is a final "no".
   */
  async sftpAuth(body: SftpAuthRequest): Promise<SftpGrant> {
    const res = (await this.once('POST', '/sftp/auth', body)) as
      (Partial<SftpGrant> & { file_paths?: unknown }) | null;
    if (
      !res ||
      typeof res.server !== 'string' ||
      typeof res.user !== 'string' ||
      !Array.isArray(res.permissions) ||
      !res.permissions.every((p) => typeof p === 'string')
    ) {
      throw new RemoteError('panel sent an invalid answer for POST /sftp/auth', 200);
    }
    return {
      server: res.server,
      user: res.user,
      permissions: res.permissions,
      filePaths: grantedFolders(res),
    };
  }

  private async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const deadline = Date.now() + (this.opts.retryForMs ?? 30_000);
    let delay = 500;
    for (;;) {
      try {
        return await this.once(method, path, body);
      } catch (err) {
        const retryable = err instanceof RemoteError && (err.status === 0 || err.status >= 500);
        if (!retryable || Date.now() + delay > deadline) throw err;
        await new Promise((r) => setTimeout(r, delay * (0.75 + Math.random() * 0.5)));
        delay = Math.min(delay * 1.5, 12_000);
      }
    }
  }

  private async once(method: string, path: string, body?: unknown): Promise<unknown> {
    let res: HttpAnswer;
    try {
      res = await httpRequest(this.base + path, {
        method,
        headers: {
          Authorization: `Bearer ${this.opts.tokenId}.${this.opts.token}`,
          Accept: 'application/vnd.pterodactyl.v1+json',
          'Content-Type': 'application/json',
          'User-Agent': 'Talon Daemon',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: this.opts.timeoutSeconds * 1000,
      });
    } catch (err) {
      throw new RemoteError(`panel unreachable (${method} ${path}): ${(err as Error).message}`, 0);
    }
    const { text } = res;
    if (res.status < 200 || res.status > 299) {
      throw new RemoteError(
        `panel answered ${res.status} to ${method} ${path}: ${firstError(text)}`,
        res.status,
      );
    }
    if (text.trim() === '') return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new RemoteError(`panel sent invalid JSON for ${method} ${path}`, res.status);
    }
  }
}

/** The panel's error envelope is `{"errors": [{code, status, detail}]}`; report the first one. */
function firstError(text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: { code?: string; detail?: string }[] };
    const e = body.errors?.[0];
    if (e) return `${e.code ?? ''} ${e.detail ?? ''}`.trim();
  } catch {
    // not JSON: fall through
  }
  return text.slice(0, 200) || '_MissingResponseCode';
}

/**
 * The `file_paths` of an /sftp/auth answer: absent or null is no limit; anything else that is not
 * a list of strings limits the session to nothing rather than to everything.
 */
function grantedFolders(res: { file_paths?: unknown }): string[] | null {
  const value = res.file_paths;
  if (value === undefined || value === null) return null;
  return Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string').map(cleanServerPath)
    : [];
}
