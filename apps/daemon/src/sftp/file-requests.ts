import ssh2, { type Attributes } from 'ssh2';
import { attrsOf, sftpClean } from './listing.ts';
import type { On, SessionContext } from './requests.ts';
import { invalidHandle, noSuchFile } from './status.ts';
import { grow } from './write-extents.ts';

const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;
/** Bytes answered per READ at most (clients ask for 32 KiB; OpenSSH allows up to 256 KiB). */
const MAX_READ = 256 * 1024;
const WRITE_FLAGS = OPEN_MODE.WRITE | OPEN_MODE.APPEND | OPEN_MODE.CREAT | OPEN_MODE.TRUNC;

/**
 * Requests on open files: OPEN, READ, WRITE, FSTAT, CLOSE, and SETSTAT/FSETSTAT. A write counts
 * against the disk quota only the bytes it adds to the file (`write-extents.ts`), checked and
 * counted before anything is written.
 */
export function registerFileRequests(ctx: SessionContext, on: On): void {
  const { sftp, files, grant, scope, handles } = ctx;
  const jail = files.jail;

  const fileHandle = (hb: Buffer) => {
    const h = handles.get(hb);
    if (!h || h.kind !== 'file') throw invalidHandle();
    return h;
  };

  on('OPEN', async (reqid, filename: string, flags: number) => {
    handles.checkRoom();
    scope.requireInside(filename);
    if ((flags & WRITE_FLAGS) === 0) {
      grant.need('file.read-content');
      const { handle } = await jail.openRead(filename);
      sftp.handle(reqid, handles.add({ kind: 'file', path: filename, fh: handle, writing: null }));
      return;
    }
    if ((flags & OPEN_MODE.READ) !== 0) grant.need('file.read-content');
    const existing = await jail.lstat(filename);
    grant.needWrite(existing ? 'file.update' : 'file.create');
    if (existing?.isFile()) ctx.extents.truncating(existing);
    const { handle, created } = await files.openWrite(filename);
    let writing;
    try {
      writing = ctx.extents.opened(await handle.stat());
    } catch (err) {
      await handle.close();
      throw err;
    }
    sftp.handle(reqid, handles.add({ kind: 'file', path: filename, fh: handle, writing }));
    ctx.activity(created ? 'server:sftp.create' : 'server:sftp.write', { files: [sftpClean(filename)] });
  });

  on('READ', async (reqid, hb: Buffer, offset: number, length: number) => {
    const h = fileHandle(hb);
    const buf = Buffer.alloc(Math.min(length, MAX_READ));
    const { bytesRead } = await h.fh.read(buf, 0, buf.length, offset);
    if (bytesRead === 0) sftp.status(reqid, STATUS_CODE.EOF);
    else sftp.data(reqid, buf.subarray(0, bytesRead));
  });

  on('WRITE', async (reqid, hb: Buffer, offset: number, data: Buffer) => {
    const h = fileHandle(hb);
    if (!h.writing) throw invalidHandle();
    grant.stillActive();
    // Counted before the first wait, so the writes of a pipelined upload each count their own bytes.
    const growth = grow(h.writing.extent, offset, data.length);
    try {
      await files.reserve(growth.bytes);
    } catch (err) {
      growth.undo();
      throw err;
    }
    for (let off = 0; off < data.length;) {
      off += (await h.fh.write(data, off, data.length - off, offset + off)).bytesWritten;
    }
    sftp.status(reqid, STATUS_CODE.OK);
  });

  on('FSTAT', async (reqid, hb: Buffer) => {
    const h = handles.get(hb);
    if (!h) throw invalidHandle();
    if (h.kind === 'file') {
      sftp.attrs(reqid, attrsOf(await h.fh.stat()));
      return;
    }
    grant.need('file.read');
    scope.visible(h.path);
    const st = await jail.lstat(h.path);
    if (!st) throw noSuchFile();
    sftp.attrs(reqid, attrsOf(st));
  });

  const setstat = async (reqid: number, p: string, attrs: Attributes) => {
    grant.needWrite('file.update');
    scope.requireInside(p);
    // Only the permission bits, through the shared chmod: never through a link
    // (GHSA-rhq6-9rgh-v45c), never setuid/setgid.
    if (typeof attrs.mode === 'number' && !(await files.chmod(p, attrs.mode & 0o7777))) throw noSuchFile();
    sftp.status(reqid, STATUS_CODE.OK);
  };
  on('SETSTAT', setstat);
  on('FSETSTAT', async (reqid, hb: Buffer, attrs: Attributes) => {
    const h = handles.get(hb);
    if (!h) throw invalidHandle();
    await setstat(reqid, h.path, attrs);
  });

  on('CLOSE', async (reqid, hb: Buffer) => {
    if (!(await handles.close(hb))) throw invalidHandle();
    sftp.status(reqid, STATUS_CODE.OK);
  });
}
