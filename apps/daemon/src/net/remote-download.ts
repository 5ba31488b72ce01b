import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { FileError } from '../fs/errors.ts';
import { fileObject, type FileObject } from '../fs/file-object.ts';
import { sniffMime } from '../fs/mime.ts';
import type { ServerFiles, StagedWrite } from '../fs/server-files.ts';
import type { AddressPolicy } from './address-policy.ts';
import { RemoteRefused, pinnedGet, type Resolver } from './pinned-get.ts';

export interface PullRequest {
  url: string;
  /** Directory of the server the file goes to. */
  root: string;
  /** The name the user gave, if any (wins over the header and the URL). */
  fileName: string | null;
  /** Take the name from the answer's Content-Disposition when none was given. */
  useHeader: boolean;
}

export interface DownloadLimits {
  policy: AddressPolicy;
  maxRedirects: number;
  /** Most ms for the whole download. */
  timeoutMs: number;
  resolve?: Resolver;
}

/** Most ms to connect and get the headers of each hop, and without a byte while the body arrives. */
const HEADERS_TIMEOUT_MS = 30_000;
const IDLE_TIMEOUT_MS = 60_000;
const CANCELLED = new RemoteRefused('The download was cancelled.');

/** `name` when it can be one file's name in a directory; else null. */
function plainName(name: string): string | null {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\x00-\x1f\x7f]/.test(name) || Buffer.byteLength(name) > 255) return null;
  return name;
}

/** The file name of a Content-Disposition header (`filename*=UTF-8''…` first, then `filename=`). */
export function dispositionName(header: string | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*utf-8'[^']*'([^;\s]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!);
    } catch {
      // fall through to the plain parameter
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  return /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1] ?? null;
}

/** The last segment of a URL's path, decoded; '' when it ends with a slash. */
function urlName(url: URL): string {
  const last = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * One remote file downloaded into a server (protocol §8.15): `start` connects (addresses checked,
 * redirects followed by hand, `pinned-get.ts`), checks the answer, the name and the room on disk,
 * and so throws every refusal before anything is written; the body then streams into a staged file
 * (`ServerFiles.stage`: quota checked on every piece, never visible under its name until complete).
 * A cancelled or failed download leaves nothing behind.
 */
export class RemoteDownload {
  readonly identifier = randomUUID();
  /** Bytes received so far, and the size the remote announced (null when it did not). */
  bytes = 0;
  total: number | null = null;
  name: string | null = null;
  private readonly abort = new AbortController();

  constructor(
    readonly request: PullRequest,
    private readonly files: ServerFiles,
    private readonly limits: DownloadLimits,
  ) {}

  /** 0–1 when the size is known; 0 otherwise. */
  get progress(): number {
    return this.total ? Math.min(1, this.bytes / this.total) : 0;
  }

  get cancelled(): boolean {
    return this.abort.signal.aborted && this.abort.signal.reason === CANCELLED;
  }

  cancel(): void {
    this.abort.abort(CANCELLED);
  }

  /** Connect and check everything; resolves with the transfer of the body, already under way. */
  async start(): Promise<{ finished: Promise<FileObject> }> {
    const given = this.request.fileName;
    if (given && !plainName(given)) {
      throw new RemoteRefused(`"${given.slice(0, 100)}" cannot be used as a file name.`);
    }
    if (await this.files.overQuota()) throw new RemoteRefused('This server has no disk space left.');
    const timer = setTimeout(
      () =>
        this.abort.abort(
          new RemoteRefused(`The download took longer than ${this.limits.timeoutMs / 1000} seconds.`),
        ),
      this.limits.timeoutMs,
    );
    timer.unref();
    let response: IncomingMessage | null = null;
    try {
      const got = await pinnedGet(this.request.url, {
        policy: this.limits.policy,
        maxRedirects: this.limits.maxRedirects,
        signal: this.abort.signal,
        headersTimeoutMs: HEADERS_TIMEOUT_MS,
        resolve: this.limits.resolve,
      });
      response = got.response;
      const name = this.fileName(response, got.url);
      const length = response.headers['content-length'];
      this.total = length !== undefined && /^\d+$/.test(length) ? Number(length) : null;
      const target = path.posix.join('/', this.request.root, name);
      let staged: StagedWrite;
      try {
        staged = await this.files.stage(target, this.total ?? undefined);
      } catch (err) {
        if (err instanceof FileError && err.kind === 'no_space')
          throw new RemoteRefused(
            `The file is ${this.total} bytes, more than the disk space this server has left.`,
          );
        throw err;
      }
      this.name = name;
      const body = response;
      const finished = this.transfer(body, staged, name).finally(() => clearTimeout(timer));
      return { finished };
    } catch (err) {
      clearTimeout(timer);
      response?.destroy();
      throw this.abort.signal.aborted ? (this.abort.signal.reason as Error) : err;
    }
  }

  /** The name the file gets: given, else from the header (`use_header`), else from the URL. */
  private fileName(response: IncomingMessage, url: URL): string {
    if (this.request.fileName) return this.request.fileName;
    const fromHeader = this.request.useHeader
      ? dispositionName(response.headers['content-disposition'])
      : null;
    const candidate = fromHeader ? path.posix.basename(fromHeader.replace(/\\/g, '/')) : urlName(url);
    const name = plainName(candidate);
    if (!name) throw new RemoteRefused('The address does not name a file: please give a file name.');
    return name;
  }

  private async transfer(response: IncomingMessage, staged: StagedWrite, name: string): Promise<FileObject> {
    const head: Buffer[] = [];
    let headBytes = 0;
    response.setTimeout(IDLE_TIMEOUT_MS, () =>
      response.destroy(
        new RemoteRefused(`The remote server sent nothing for ${IDLE_TIMEOUT_MS / 1000} seconds.`),
      ),
    );
    try {
      try {
        for await (const chunk of response as AsyncIterable<Buffer>) {
          await staged.write(chunk);
          this.bytes += chunk.length;
          if (headBytes < 512) {
            head.push(chunk);
            headBytes += chunk.length;
          }
        }
      } catch (err) {
        if (this.abort.signal.aborted) throw this.abort.signal.reason as Error;
        if (err instanceof FileError && err.kind === 'no_space')
          throw new RemoteRefused(
            'The download was stopped: the file is larger than the disk space this server has left.',
          );
        if (err instanceof RemoteRefused || err instanceof FileError) throw err;
        throw new RemoteRefused('The connection ended before the whole file arrived.');
      }
      if (!response.complete || (this.total !== null && this.bytes !== this.total))
        throw new RemoteRefused('The connection ended before the whole file arrived.');
      await staged.commit();
    } finally {
      response.destroy();
      await staged.discard();
    }
    const stat = await this.files.jail.lstat(path.posix.join('/', this.request.root, name));
    if (!stat) throw new FileError('not_found', `${name} removed meanwhile`);
    return fileObject(name, stat, sniffMime(Buffer.concat(head).subarray(0, 512)));
  }
}
