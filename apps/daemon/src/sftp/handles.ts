import type { FileHandle } from 'node:fs/promises';
import type { Attributes } from 'ssh2';
import { Refused } from './status.ts';
import type { Extent } from './write-extents.ts';
import ssh2 from 'ssh2';

const { STATUS_CODE } = ssh2.utils.sftp;
/** Open handles per session at most (each file handle holds a descriptor). */
const MAX_HANDLES = 256;

export interface OpenFile {
  kind: 'file';
  path: string;
  fh: FileHandle;
  /** For a handle open for writing: how much of the file the disk account holds, and its release. */
  writing: { extent: Extent; release: () => void } | null;
}

export interface OpenDir {
  kind: 'dir';
  path: string;
  /** entries not sent yet */
  names: { filename: string; longname: string; attrs: Attributes }[];
}

export type Open = OpenFile | OpenDir;

/** Close a handle's descriptor and stop tracking its extent; errors are of no one's interest then. */
async function closeOpen(h: Open): Promise<void> {
  if (h.kind !== 'file') return;
  h.writing?.release();
  await h.fh.close();
}

/**
 * The handles of one SFTP session: 4-byte ids on the wire, at most MAX_HANDLES at once. Once the
 * session has ended (`closeAll`), a handle whose open finishes late is closed at once, so a client
 * that leaves mid-open cannot leave descriptors behind.
 */
export class HandleTable {
  private readonly open = new Map<number, Open>();
  private next = 1;
  private ended = false;

  /** Refuse early (before opening anything) when the table is full. */
  checkRoom(): void {
    if (this.open.size >= MAX_HANDLES) throw new Refused(STATUS_CODE.FAILURE, 'Too many open handles');
  }

  /** A wire id for `h` (it is closed when the table is full or the session has ended). */
  add(h: Open): Buffer {
    if (this.ended || this.open.size >= MAX_HANDLES) {
      void closeOpen(h).catch(() => undefined);
      if (this.ended) throw new Refused(STATUS_CODE.FAILURE, 'Session ended');
      this.checkRoom();
    }
    const id = this.next++;
    this.open.set(id, h);
    const b = Buffer.alloc(4);
    b.writeUInt32BE(id);
    return b;
  }

  get(b: Buffer): Open | undefined {
    return b.length === 4 ? this.open.get(b.readUInt32BE()) : undefined;
  }

  /** Forget the handle and close it; false when there was none. */
  async close(b: Buffer): Promise<boolean> {
    const h = this.get(b);
    if (!h) return false;
    this.open.delete(b.readUInt32BE());
    await closeOpen(h);
    return true;
  }

  closeAll(): void {
    this.ended = true;
    for (const h of this.open.values()) void closeOpen(h).catch(() => undefined);
    this.open.clear();
  }
}
