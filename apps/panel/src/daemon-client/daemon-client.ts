import http from 'node:http';
import https from 'node:https';
import {
  daemonFileListSchema,
  daemonFileObjectSchema,
  daemonServerSchema,
  systemInfoSchema,
  type DaemonFileObject,
  type DaemonServer,
  type BackupRequest,
  type DeauthorizeUser,
  type PowerAction,
  type RestoreRequest,
  type SystemInfo,
} from '@talon/shared';
import type { z } from 'zod';
import type { Node } from '../db/types.ts';
import {
  daemonPullListSchema,
  type DaemonPullEntry,
  type DaemonPullRequest,
} from '@talon/shared/wings/remote-download';
import { daemonInstallLogSchema } from '@talon/shared/wings/install-log';
import { encodeScopeHeader, FILE_SCOPE_HEADER, type FolderScope } from '@talon/shared/files/scope';
import { HttpError } from '../http/errors.ts';
import { decrypt } from '../lib/crypto.ts';

/** What the daemon reports for `GET /api/servers/:server` (shape shared with the daemon). */
export type DaemonServerState = DaemonServer;
export type { DaemonFileObject, PowerAction };

const TIMEOUT_MS = 15_000;
/** The message of the error a request ends with when the daemon stays silent too long. */
export const TIMED_OUT = 'timed out';
/** Archive creation and extraction may take long (reference §3.3 "Files"). */
const ARCHIVE_TIMEOUT_MS = 15 * 60_000;
/** Ending a user's sessions follows a change already made: a silent node is not waited for long. */
const DEAUTHORIZE_TIMEOUT_MS = 5_000;

interface Payload {
  type: string;
  data: Buffer | string;
}

export interface DaemonResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A daemon's 2xx body checked against its wire schema. A body that is not JSON or not of the shape
 * (a broken daemon, or something else listening on its port) is the panel's 502 naming the first
 * wrong field, never a crash or a half-read value.
 */
function parseAnswer<T>(node: Node, method: string, path: string, body: Buffer, schema: z.ZodType<T>): T {
  const route = `${method} ${path.split('?')[0]!}`;
  const unexpected = (what: string) =>
    new HttpError(
      502,
      'DaemonConnectionException',
      `The machine running this server (node "${node.name}") sent an unexpected answer to ${route}: ${what}.`,
    );
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw unexpected('the body is not JSON');
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length === 0 ? 'the body' : `"${issue.path.map(String).join('.')}"`;
  throw unexpected(`${field} is invalid (${issue.message})`);
}

/** The base URL the panel and browsers use for a node. */
export function nodeUrl(node: Node): string {
  return `${node.scheme}://${node.fqdn}:${node.daemon_listen}`;
}

/**
 * The only code that calls daemons (Wings protocol §2). Every call has a timeout; failures become
 * `DaemonConnectionException` errors that name the node, so a user is never left waiting on a
 * machine that is down.
 */
export class DaemonClient {
  // Connections to daemons are kept open and reused: the panel talks to few machines, often.
  private readonly agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  /** HTTP requests sent to daemons so far (tests count them to see calls being shared). */
  requestsSent = 0;
  /** Decrypted node tokens, by node id and encrypted value (a reset token changes the value). */
  private readonly tokens = new Map<number, { sealed: string; plain: string }>();

  /** Headers added to every request of this client (a file-scoped view, see `withFileScope`). */
  private scopeHeaders: Record<string, string> = {};

  constructor(private readonly appKey: Buffer) {}

  /**
   * This client for the file requests of a subuser limited to `folders` (our extension): each
   * request names them in FILE_SCOPE_HEADER, so the daemon's jail refuses a symlink that leads out
   * of them. The same client when there are no folders.
   */
  withFileScope(folders: FolderScope): DaemonClient {
    if (folders === null) return this;
    const scoped = Object.create(this) as DaemonClient;
    scoped.scopeHeaders = { [FILE_SCOPE_HEADER]: encodeScopeHeader(folders) };
    return scoped;
  }

  token(node: Node): string {
    const hit = this.tokens.get(node.id);
    if (hit?.sealed === node.daemon_token) return hit.plain;
    const plain = decrypt(this.appKey, node.daemon_token);
    this.tokens.set(node.id, { sealed: node.daemon_token, plain });
    return plain;
  }

  private send(
    node: Node,
    method: string,
    path: string,
    payload: Payload | undefined,
    timeoutMs: number,
    limit = Infinity,
    /** A new connection instead of a kept-alive one (health checks: a stale socket is no answer). */
    fresh = false,
  ) {
    const url = new URL(path, nodeUrl(node));
    const secure = url.protocol === 'https:';
    this.requestsSent += 1;
    return new Promise<DaemonResponse>((resolve, reject) => {
      const req = (secure ? https : http).request(
        url,
        {
          method,
          agent: fresh ? false : secure ? this.agents.https : this.agents.http,
          timeout: timeoutMs,
          headers: {
            authorization: `Bearer ${this.token(node)}`,
            accept: 'application/json',
            ...this.scopeHeaders,
            // Wings requires a Content-Length on writes, so it is always sent, even for empty bodies.
            ...(payload === undefined
              ? {}
              : { 'content-type': payload.type, 'content-length': Buffer.byteLength(payload.data) }),
          },
        },
        (res) => {
          // A body over the caller's limit is not downloaded at all: the headers say enough.
          if (Number(res.headers['content-length'] ?? 0) > limit) {
            res.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0) });
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(TIMED_OUT)));
      req.on('error', reject);
      req.end(payload?.data);
    });
  }

  private call(node: Node, method: string, path: string, body?: unknown, timeoutMs = TIMEOUT_MS) {
    const payload = body === undefined ? undefined : { type: 'application/json', data: JSON.stringify(body) };
    return this.exchange(node, method, path, payload, timeoutMs);
  }

  /** One request; 2xx answers are returned, everything else becomes the reference's errors. */
  private async exchange(
    node: Node,
    method: string,
    path: string,
    payload: Payload | undefined,
    timeoutMs = TIMEOUT_MS,
    limit = Infinity,
  ) {
    let res: DaemonResponse;
    try {
      res = await this.send(node, method, path, payload, timeoutMs, limit);
    } catch {
      throw new HttpError(
        504,
        'DaemonConnectionException',
        `Could not establish a connection to the machine running this server (node "${node.name}"). Please try again.`,
      );
    }
    if (res.status >= 200 && res.status < 300) {
      return {
        ...res,
        json: () => JSON.parse(res.body.toString('utf8')) as unknown,
        /** The body, checked against the shape the daemon must send; anything else is a 502. */
        parse: <T>(schema: z.ZodType<T>) => parseAnswer(node, method, path, res.body, schema),
      };
    }
    const requestId = String(res.headers['x-request-id'] ?? 'none');
    let message = '';
    try {
      message = (JSON.parse(res.body.toString('utf8')) as { error?: string }).error ?? '';
    } catch {
      message = '';
    }
    if (res.status >= 500) {
      throw new HttpError(
        res.status,
        'DaemonConnectionException',
        `There was an error while communicating with the machine running this server (node "${node.name}"). This error has been logged, please try again. (code: ${res.status}) (request_id: ${requestId})`,
      );
    }
    throw new HttpError(
      res.status,
      'DaemonConnectionException',
      // The daemon's own texts end with a period: drop it rather than print two.
      `An error occurred on the remote host: ${message.replace(/\.+$/u, '') || `status ${res.status}`}. (request id: ${requestId})`,
    );
  }

  /** Closes kept-alive connections (the panel is stopping). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /**
   * `GET /api/system?v=2` as it came back, for node health (daemon-client/node-health.ts): no
   * status mapping, and network failures rejected with the socket's own error (its `code`).
   */
  systemProbe(node: Node, timeoutMs: number): Promise<DaemonResponse> {
    return this.send(node, 'GET', '/api/system?v=2', undefined, timeoutMs, 1024 * 1024, true);
  }

  async system(node: Node): Promise<SystemInfo> {
    return (await this.call(node, 'GET', '/api/system')).parse(systemInfoSchema);
  }

  async createServer(node: Node, uuid: string, startOnCompletion: boolean): Promise<void> {
    await this.call(node, 'POST', '/api/servers', { uuid, start_on_completion: startOnCompletion });
  }

  async server(node: Node, uuid: string): Promise<DaemonServerState> {
    return (await this.call(node, 'GET', `/api/servers/${uuid}`)).parse(daemonServerSchema);
  }

  async deleteServer(node: Node, uuid: string): Promise<void> {
    await this.call(node, 'DELETE', `/api/servers/${uuid}`);
  }

  async power(node: Node, uuid: string, action: PowerAction): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/power`, { action });
  }

  async commands(node: Node, uuid: string, commands: string[]): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/commands`, { commands });
  }

  async reinstall(node: Node, uuid: string): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/reinstall`);
  }

  /**
   * The last install's log of a server (daemon extension `GET …/install-logs`), or null when the
   * node has none for it (never installed there, or it skipped the install script).
   */
  async installLog(node: Node, uuid: string): Promise<string | null> {
    try {
      const res = await this.call(node, 'GET', `/api/servers/${uuid}/install-logs`);
      return res.parse(daemonInstallLogSchema).data;
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) return null;
      throw err;
    }
  }

  async sync(node: Node, uuid: string): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/sync`);
  }

  async denyTokens(node: Node, uuid: string, jtis: string[]): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/ws/deny`, { jtis });
  }

  /**
   * `POST /api/deauthorize-user` (protocol §9.2b): the node ends the user's consoles and SFTP
   * sessions on `servers` (all of its servers when absent) and refuses their earlier tokens. A
   * short wait: the change it follows is already made, and the user waits for the answer.
   */
  async deauthorizeUser(node: Node, body: DeauthorizeUser): Promise<void> {
    await this.call(node, 'POST', '/api/deauthorize-user', body, DEAUTHORIZE_TIMEOUT_MS);
  }

  /**
   * A server file's bytes (Wings `files/contents`), or `null` when the daemon reports a size over
   * `limit` (the body is then not downloaded).
   */
  async fileContents(node: Node, uuid: string, file: string, limit: number): Promise<Buffer | null> {
    const res = await this.exchange(
      node,
      'GET',
      `/api/servers/${uuid}/files/contents?file=${encodeURIComponent(file)}`,
      undefined,
      TIMEOUT_MS,
      limit,
    );
    return Number(res.headers['content-length'] ?? 0) > limit ? null : res.body;
  }

  /** Creates or replaces a server file with `content` (Wings `files/write`). */
  async writeFile(node: Node, uuid: string, file: string, content: Buffer): Promise<void> {
    await this.exchange(node, 'POST', `/api/servers/${uuid}/files/write?file=${encodeURIComponent(file)}`, {
      type: 'application/octet-stream',
      data: content,
    });
  }

  /** A directory's entries as Wings file objects (Wings `files/list-directory`). */
  async listDirectory(node: Node, uuid: string, directory: string): Promise<DaemonFileObject[]> {
    const res = await this.call(
      node,
      'GET',
      `/api/servers/${uuid}/files/list-directory?directory=${encodeURIComponent(directory)}`,
    );
    return res.parse(daemonFileListSchema);
  }

  async renameFiles(node: Node, uuid: string, root: string, files: { from: string; to: string }[]) {
    await this.call(node, 'PUT', `/api/servers/${uuid}/files/rename`, { root, files });
  }

  async copyFile(node: Node, uuid: string, location: string): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/files/copy`, { location });
  }

  async createDirectory(node: Node, uuid: string, name: string, path: string): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/files/create-directory`, { name, path });
  }

  async deleteFiles(node: Node, uuid: string, root: string, files: string[]): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/files/delete`, { root, files });
  }

  /** Wings `files/compress` (15-minute timeout): the new archive's file object. */
  async compressFiles(node: Node, uuid: string, root: string, files: string[]): Promise<DaemonFileObject> {
    const res = await this.call(
      node,
      'POST',
      `/api/servers/${uuid}/files/compress`,
      { root, files },
      ARCHIVE_TIMEOUT_MS,
    );
    return res.parse(daemonFileObjectSchema);
  }

  /** Wings `files/decompress` (15-minute timeout). */
  async decompressFile(node: Node, uuid: string, root: string, file: string): Promise<void> {
    await this.call(
      node,
      'POST',
      `/api/servers/${uuid}/files/decompress`,
      { root, file },
      ARCHIVE_TIMEOUT_MS,
    );
  }

  async chmodFiles(node: Node, uuid: string, root: string, files: { file: string; mode: string }[]) {
    await this.call(node, 'POST', `/api/servers/${uuid}/files/chmod`, { root, files });
  }

  /**
   * Wings `files/pull`: the daemon downloads `body.url` into the server. In the foreground it
   * answers once the file is complete, so the wait is as long as a download may take (12 h).
   */
  async pullFile(node: Node, uuid: string, body: DaemonPullRequest): Promise<void> {
    const timeout = body.foreground ? 12 * 3600_000 : TIMEOUT_MS;
    await this.call(node, 'POST', `/api/servers/${uuid}/files/pull`, body, timeout);
  }

  /** Wings `GET files/pull`: the downloads running for the server. */
  async pullDownloads(node: Node, uuid: string): Promise<DaemonPullEntry[]> {
    const res = await this.call(node, 'GET', `/api/servers/${uuid}/files/pull`);
    return res.parse(daemonPullListSchema).downloads ?? [];
  }

  /** Wings `POST backup`: the daemon archives the server in the background (202, no body). */
  async createBackup(node: Node, uuid: string, body: BackupRequest): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/backup`, body);
  }

  /**
   * Wings `POST backup/<uuid>/restore`: answered once the archive was found and checked (ours reads
   * it through before answering, so the wait is an archive's, not a plain call's).
   */
  async restoreBackup(node: Node, uuid: string, backup: string, body: RestoreRequest): Promise<void> {
    await this.call(
      node,
      'POST',
      `/api/servers/${uuid}/backup/${encodeURIComponent(backup)}/restore`,
      body,
      ARCHIVE_TIMEOUT_MS,
    );
  }

  /** Wings `DELETE backup/<uuid>`: removes the archive (404 when the daemon has none). */
  async deleteBackup(node: Node, uuid: string, backup: string): Promise<void> {
    await this.call(node, 'DELETE', `/api/servers/${uuid}/backup/${encodeURIComponent(backup)}`);
  }
}
