import type { Logger } from 'pino';
import type { ActivityEntry, RemoteClient } from '../panel/client.ts';

export interface SftpActivityInput {
  user: string;
  server: string;
  event: string;
  metadata: Record<string, unknown>;
  ip: string;
}

/**
 * SFTP events (§8.14) for the panel's activity log: kept in memory and sent in batches, events of
 * the same user, server, address and kind within one batch merged into one entry listing every
 * file. A batch the panel refuses is dropped (and logged), never resent forever.
 */
export class SftpActivity {
  private pending: (ActivityEntry & { metadata: { files: unknown[] } })[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly remote: RemoteClient,
    private readonly log: Logger,
    private readonly intervalMs = 10_000,
  ) {}

  record(e: SftpActivityInput): void {
    const files = Array.isArray(e.metadata.files) ? (e.metadata.files as unknown[]) : [];
    const same = this.pending.find(
      (p) => p.user === e.user && p.server === e.server && p.ip === e.ip && p.event === e.event,
    );
    if (same) same.metadata.files.push(...files);
    else {
      this.pending.push({
        user: e.user,
        server: e.server,
        event: e.event,
        ip: e.ip,
        metadata: { files: [...files] },
        timestamp: new Date().toISOString(),
      });
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
      this.log.warn({ err, entries: batch.length }, 'sftp activity not sent');
    }
    if (this.pending.length > 0) this.timer = setTimeout(() => void this.flush(), this.intervalMs);
  }
}
