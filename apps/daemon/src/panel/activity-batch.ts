import type { Logger } from 'pino';
import type { ActivityEntry, RemoteClient } from './client.ts';

export interface ActivityInput {
  /** the acting user's uuid (from the SFTP login or the signed URL's token), null when unknown */
  user: string | null;
  server: string;
  event: string;
  metadata: Record<string, unknown>;
  ip: string | null;
}

/**
 * Events the daemon reports for the panel's activity log (§8.14: SFTP; signed uploads), kept in
 * memory and sent in batches. Events whose metadata lists `files` are merged, within one batch, with
 * those of the same user, server, address and kind into one entry listing every file; others are
 * sent as they are. A batch the panel refuses is dropped (and logged), never resent forever.
 */
export class ActivityBatch {
  private pending: ActivityEntry[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly remote: RemoteClient,
    private readonly log: Logger,
    private readonly intervalMs = 10_000,
  ) {}

  record(e: ActivityInput): void {
    const files = e.metadata.files;
    const same = Array.isArray(files)
      ? this.pending.find(
          (p) =>
            p.user === e.user &&
            p.server === e.server &&
            p.ip === e.ip &&
            p.event === e.event &&
            Array.isArray(p.metadata?.files),
        )
      : undefined;
    if (same) (same.metadata!.files as unknown[]).push(...(files as unknown[]));
    else {
      const metadata = Array.isArray(files)
        ? { ...e.metadata, files: [...(files as unknown[])] }
        : e.metadata;
      this.pending.push({ ...e, metadata, timestamp: new Date().toISOString() });
    }
    this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending.splice(0, 100);
    if (batch.length === 0) return;
    try {
      await this.remote.sendActivity(batch);
    } catch (err) {
      this.log.warn({ err, entries: batch.length }, 'activity not sent to the panel');
    }
    if (this.pending.length > 0) this.timer = setTimeout(() => void this.flush(), this.intervalMs);
  }
}
