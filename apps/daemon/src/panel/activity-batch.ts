import type { Logger } from 'pino';
import { RemoteError, type ActivityEntry, type RemoteClient } from './client.ts';

export interface ActivityInput {
  /** the acting user's uuid (from the SFTP login, the signed URL's or the socket's token), null when unknown */
  user: string | null;
  server: string;
  event: string;
  metadata: Record<string, unknown>;
  ip: string | null;
}

/** Entries per request: the reference's `system.activity_send_count`. */
const BATCH_SIZE = 100;
/** Entries kept while the panel is away (about 2 MB); beyond it the oldest are dropped. */
const MAX_QUEUED = 10_000;
/** Files listed in one merged entry; more start a new entry. */
const MAX_FILES = 1000;
/** The longest wait between two tries while the panel keeps failing. */
const MAX_BACKOFF_MS = 10 * 60_000;

export interface ActivityBatchOptions {
  /** Wait after the first entry before a batch goes (and the first retry's delay). */
  intervalMs?: number;
  maxQueued?: number;
}

/**
 * Events the daemon reports for the panel's activity log (§8.14: SFTP; signed uploads; power
 * actions and console commands sent over the console socket), sent to
 * `POST /api/remote/activity` (§5.10). The rules, each tested:
 * - a request carries at most BATCH_SIZE entries; one is in flight at a time;
 * - a batch leaves the queue for good only when the panel acknowledged it (2xx): nothing is sent
 *   twice after an acknowledgement;
 * - a batch the panel refuses (4xx) is dropped and logged: sending it again would be refused again;
 * - a batch that failed (5xx, network) goes back to the head of the queue and is tried again
 *   after a delay that doubles with each failure (up to MAX_BACKOFF_MS);
 * - the queue holds at most `maxQueued` entries: beyond, the oldest are dropped, with a log line.
 * Events whose metadata lists `files` are merged, while queued, with those of the same user,
 * server, address and kind into one entry listing up to MAX_FILES files.
 */
export class ActivityBatch {
  private queue: ActivityEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private failures = 0;
  private readonly intervalMs: number;
  private readonly maxQueued: number;

  constructor(
    private readonly remote: RemoteClient,
    private readonly log: Logger,
    opts: ActivityBatchOptions = {},
  ) {
    this.intervalMs = opts.intervalMs ?? 10_000;
    this.maxQueued = opts.maxQueued ?? MAX_QUEUED;
  }

  /** Entries waiting to be sent (a batch in flight included until it is answered). */
  get queued(): number {
    return this.queue.length + (this.inFlight?.length ?? 0);
  }

  private inFlight: ActivityEntry[] | null = null;

  record(input: ActivityInput): void {
    // The panel takes a plain IP (§5.10): a link-local address's zone (`fe80::1%eth0`) would have
    // the whole batch refused.
    const e = { ...input, ip: input.ip?.replace(/%.*$/, '') ?? null };
    if (!this.mergeFiles(e)) {
      const files = e.metadata.files;
      const metadata = Array.isArray(files)
        ? { ...e.metadata, files: [...(files as unknown[])] }
        : e.metadata;
      this.queue.push({ ...e, metadata, timestamp: new Date().toISOString() });
      this.trim();
    }
    this.schedule(this.intervalMs);
  }

  /** Add `e`'s files to a queued entry of the same kind with room; false when there is none. */
  private mergeFiles(e: ActivityInput): boolean {
    const files = e.metadata.files;
    if (!Array.isArray(files)) return false;
    const same = this.queue.find((p) => {
      const listed = p.metadata?.files;
      return (
        p.user === e.user &&
        p.server === e.server &&
        p.ip === e.ip &&
        p.event === e.event &&
        Array.isArray(listed) &&
        listed.length + files.length <= MAX_FILES
      );
    });
    if (!same) return false;
    (same.metadata!.files as unknown[]).push(...(files as unknown[]));
    return true;
  }

  /** Drop the oldest entries beyond the cap. */
  private trim(): void {
    const over = this.queued - this.maxQueued;
    if (over <= 0) return;
    this.queue.splice(0, Math.min(over, this.queue.length));
    this.log.warn({ dropped: over, kept: this.maxQueued }, 'activity queue full; oldest entries dropped');
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.sending) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delayMs);
  }

  /** Send one batch now (or join the one in flight). Never rejects. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.sending ??= this.sendOne().finally(() => {
      this.sending = null;
      this.next();
    });
    return this.sending;
  }

  /** Resolves once no batch is in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.sending) await this.sending;
  }

  private async sendOne(): Promise<void> {
    const batch = this.queue.splice(0, BATCH_SIZE);
    if (batch.length === 0) return;
    this.inFlight = batch;
    try {
      await this.remote.sendActivity(batch);
      this.failures = 0;
    } catch (err) {
      const status = err instanceof RemoteError ? err.status : 0;
      if (status >= 400 && status < 500) {
        this.failures = 0;
        this.log.warn({ err, status, entries: batch.length }, 'activity refused by the panel; dropped');
      } else {
        this.failures++;
        this.queue.unshift(...batch);
        this.log.warn(
          { err, status, entries: batch.length, retryInMs: this.backoff() },
          'activity not accepted by the panel; will retry',
        );
      }
    } finally {
      this.inFlight = null;
    }
    this.trim();
  }

  /** After a send: the next batch at once when a full one waits, else after the interval or back-off. */
  private next(): void {
    if (this.queue.length === 0) return;
    if (this.failures > 0) this.schedule(this.backoff());
    else this.schedule(this.queue.length >= BATCH_SIZE ? 0 : this.intervalMs);
  }

  private backoff(): number {
    return Math.min(this.intervalMs * 2 ** Math.max(0, this.failures - 1), MAX_BACKOFF_MS);
  }
}
