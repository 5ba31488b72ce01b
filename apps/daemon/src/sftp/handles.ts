import type { FileHandle } from 'node:fs/promises';
import type { Attributes } from 'ssh2';
import { Refused } from './status.ts';
import ssh2 from 'ssh2';

const { STATUS_CODE } = ssh2.utils.sftp;
/** Open handles per session at most (each file handle holds a descriptor). */
const MAX_HANDLES = 256;

export interface OpenFile {
  kind: 'file';
  path: string;
  fh: FileHandle;
  write: boolean;
  /** bytes known to be in the file (growth beyond it counts against the quota) */
  size: number;
}

export interface OpenDir {
  kind: 'dir';
  path: string;
  /** entries not sent yet */
  names: { filename: string; longname: string; attrs: Attributes }[];
}

export type Open = OpenFile | OpenDir;

/** The handles of one SFTP session: 4-byte ids on the wire, at most MAX_HANDLES at once. */
export class HandleTable {
  private readonly open = new Map<number, Open>();
  private next = 1;

  /** Refuse early (before opening anything) when the table is full. */
  checkRoom(): void {
    if (this.open.size >= MAX_HANDLES) throw new Refused(STATUS_CODE.FAILURE, 'Too many open handles');
  }

  /** A wire id for `h` (a file is closed when the table is full). */
  add(h: Open): Buffer {
    if (this.open.size >= MAX_HANDLES) {
      if (h.kind === 'file') void h.fh.close().catch(() => undefined);
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

  /** Forget the handle; the caller closes a file's descriptor. */
  take(b: Buffer): Open | undefined {
    const h = this.get(b);
    if (h) this.open.delete(b.readUInt32BE());
    return h;
  }

  closeAll(): void {
    for (const h of this.open.values()) if (h.kind === 'file') void h.fh.close().catch(() => undefined);
    this.open.clear();
  }
}
