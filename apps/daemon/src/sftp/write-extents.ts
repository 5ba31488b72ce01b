import type { Stats } from 'node:fs';
import { stagedKey } from '../fs/disk-usage.ts';

/** One file open for writing over SFTP: the bytes of it its server's disk account already holds. */
export interface Extent {
  bytes: number;
}

/**
 * How much of each file open for writing over SFTP is counted in its server's disk account, one
 * table per server, shared by all its sessions and handles. A write counts only what it adds beyond
 * the extent, and moves the extent before it waits for anything, so writes in flight together
 * count each byte once. Opening a file truncates it and the account is credited with its old size:
 * the extent drops to 0 for every handle on it, so a handle kept open cannot rewrite those bytes
 * uncounted (CVE-2026-61617).
 */
export class WriteExtents {
  private readonly files = new Map<string, { extent: Extent; opens: number }>();

  /**
   * `st`'s file is about to be truncated by an open: handles on it count from 0 from now on, so a
   * write that arrives while the truncation is under way is counted too, not only those after.
   */
  truncating(st: Pick<Stats, 'dev' | 'ino'>): void {
    const entry = this.files.get(stagedKey(st));
    if (entry) entry.extent.bytes = 0;
  }

  /** A handle opened (and truncated) `st`'s file: its extent is 0. Call `release` when it closes. */
  opened(st: Pick<Stats, 'dev' | 'ino'>): { extent: Extent; release: () => void } {
    const key = stagedKey(st);
    let entry = this.files.get(key);
    if (!entry) {
      entry = { extent: { bytes: 0 }, opens: 0 };
      this.files.set(key, entry);
    }
    entry.extent.bytes = 0;
    entry.opens++;
    const held = entry;
    let released = false;
    return {
      extent: held.extent,
      release: () => {
        if (released) return;
        released = true;
        if (--held.opens === 0) this.files.delete(key);
      },
    };
  }
}

/**
 * The bytes a write of `length` at `offset` adds beyond `extent`, with the extent moved past it at
 * once; `undo` gives the count back when the quota refuses the write.
 */
export function grow(extent: Extent, offset: number, length: number): { bytes: number; undo: () => void } {
  const before = extent.bytes;
  const end = offset + length;
  const bytes = Math.max(0, end - before);
  extent.bytes = Math.max(before, end);
  // Later writes may have moved it further meanwhile: going back to `before` at most makes them
  // count some bytes twice, never none.
  return { bytes, undo: () => (extent.bytes = Math.min(extent.bytes, before)) };
}
