import type { FileHandle } from 'node:fs/promises';
import { can } from '@talon/shared';
import ssh2, { type Attributes, type SFTPWrapper } from 'ssh2';
import type { Logger } from 'pino';
import { FileError } from '../fs/errors.ts';
import type { Jail } from '../fs/jail.ts';
import type { Server } from '../servers/server.ts';
import { attrsOf, longname, sftpClean } from './listing.ts';

const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;
const MIB = 1024 * 1024;
/** Bytes answered per READ at most (clients ask for 32 KiB; OpenSSH allows up to 256 KiB). */
const MAX_READ = 256 * 1024;
/** Open handles per session at most (each file handle holds a descriptor). */
const MAX_HANDLES = 256;
/** Entries per READDIR answer. */
const DIR_BATCH = 100;

/** An SFTP activity event for the panel (§8.14), recorded by the caller. */
export type SftpEvent = (event: string, metadata: Record<string, unknown>) => void;

export interface SessionOptions {
  server: Server;
  jail: Jail;
  permissions: string[];
  readOnly: boolean;
  log: Logger;
  activity: SftpEvent;
}

type OpenFile = { kind: 'file'; path: string; fh: FileHandle; write: boolean; size: number };
interface OpenDir {
  kind: 'dir';
  path: string;
  /** entries not sent yet */
  names: { filename: string; longname: string; attrs: Attributes }[];
}

/** Refusals that carry their SFTP status. */
class Refused extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const denied = () => new Refused(STATUS_CODE.PERMISSION_DENIED, 'Permission denied');
const unsupported = () => new Refused(STATUS_CODE.OP_UNSUPPORTED, 'Operation unsupported');
const quota = () => new Refused(STATUS_CODE.FAILURE, 'Quota Exceeded');

/**
 * One SFTP subsystem bound to one server and the permissions the panel granted at login (§8.12).
 * Every path goes through the server's jail; nothing here touches the filesystem by name.
 */
export function serveSftp(sftp: SFTPWrapper, opts: SessionOptions): void {
  const { server, jail, permissions } = opts;
  const handles = new Map<number, OpenFile | OpenDir>();
  let nextHandle = 1;

  const handleId = (h: OpenFile | OpenDir): Buffer => {
    if (handles.size >= MAX_HANDLES) {
      if (h.kind === 'file') void h.fh.close().catch(() => undefined);
      throw new Refused(STATUS_CODE.FAILURE, 'Too many open handles');
    }
    const id = nextHandle++;
    handles.set(id, h);
    const b = Buffer.alloc(4);
    b.writeUInt32BE(id);
    return b;
  };
  const roomForHandle = () => {
    if (handles.size >= MAX_HANDLES) throw new Refused(STATUS_CODE.FAILURE, 'Too many open handles');
  };
  const lookup = (b: Buffer): OpenFile | OpenDir | undefined =>
    b.length === 4 ? handles.get(b.readUInt32BE()) : undefined;

  const need = (permission: string) => {
    if (server.suspended) throw denied();
    if (!can(permissions, permission)) throw denied();
  };
  const needWrite = (permission: string) => {
    if (opts.readOnly) throw unsupported();
    need(permission);
  };
  const limitBytes = () => server.config.settings.build.disk_space * MIB;

  /** Run one request; map refusals and jail errors to SFTP statuses. */
  const run = (reqid: number, what: string, fn: () => Promise<void>) => {
    fn().catch((err: unknown) => {
      let code: number = STATUS_CODE.FAILURE;
      let message = 'Failure';
      if (err instanceof Refused) {
        code = err.code;
        message = err.message;
      } else if (err instanceof FileError) {
        switch (err.kind) {
          case 'not_found':
            code = STATUS_CODE.NO_SUCH_FILE;
            message = 'No such file';
            break;
          case 'outside_root':
            code = STATUS_CODE.PERMISSION_DENIED;
            message = 'Permission denied';
            break;
          case 'no_space':
            message = 'Quota Exceeded';
            break;
          case 'exists':
            message = 'File exists';
            break;
          default:
            message = 'Failure';
        }
      } else {
        opts.log.warn({ err, op: what, server: server.uuid }, 'sftp operation failed');
      }
      try {
        sftp.status(reqid, code, message);
      } catch {
        // channel gone
      }
    });
  };
  const ok = (reqid: number) => sftp.status(reqid, STATUS_CODE.OK);

  sftp.on('REALPATH', (reqid, p) => {
    const clean = sftpClean(p);
    sftp.name(reqid, [{ filename: clean, longname: clean, attrs: {} as Attributes }]);
  });

  const statPath = async (reqid: number, p: string) => {
    need('file.read');
    const st = await jail.lstat(p);
    if (!st) throw new Refused(STATUS_CODE.NO_SUCH_FILE, 'No such file');
    sftp.attrs(reqid, attrsOf(st));
  };
  sftp.on('STAT', (reqid, p) => run(reqid, 'stat', () => statPath(reqid, p)));
  sftp.on('LSTAT', (reqid, p) => run(reqid, 'lstat', () => statPath(reqid, p)));

  sftp.on('OPEN', (reqid, filename, flags) => {
    run(reqid, 'open', async () => {
      roomForHandle();
      const wantsWrite =
        (flags & (OPEN_MODE.WRITE | OPEN_MODE.APPEND | OPEN_MODE.CREAT | OPEN_MODE.TRUNC)) !== 0;
      if (!wantsWrite) {
        need('file.read-content');
        const { handle, stat } = await jail.openRead(filename);
        sftp.handle(
          reqid,
          handleId({ kind: 'file', path: filename, fh: handle, write: false, size: stat.size }),
        );
        return;
      }
      if ((flags & OPEN_MODE.READ) !== 0) need('file.read-content');
      const exists = (await jail.lstat(filename)) !== null;
      needWrite(exists ? 'file.update' : 'file.create');
      const limit = limitBytes();
      const { handle, oldSize, created } = await jail.openWrite(filename, async () => {
        if (limit > 0 && (await server.disk.current()) >= limit) throw quota();
      });
      server.disk.adjust(-oldSize);
      sftp.handle(reqid, handleId({ kind: 'file', path: filename, fh: handle, write: true, size: 0 }));
      opts.activity(created ? 'server:sftp.create' : 'server:sftp.write', { files: [sftpClean(filename)] });
    });
  });

  sftp.on('READ', (reqid, hb, offset, length) => {
    run(reqid, 'read', async () => {
      const h = lookup(hb);
      if (!h || h.kind !== 'file') throw new Refused(STATUS_CODE.FAILURE, 'Invalid handle');
      const buf = Buffer.alloc(Math.min(length, MAX_READ));
      const { bytesRead } = await h.fh.read(buf, 0, buf.length, offset);
      if (bytesRead === 0) {
        sftp.status(reqid, STATUS_CODE.EOF);
        return;
      }
      sftp.data(reqid, buf.subarray(0, bytesRead));
    });
  });

  sftp.on('WRITE', (reqid, hb, offset, data) => {
    run(reqid, 'write', async () => {
      const h = lookup(hb);
      if (!h || h.kind !== 'file' || !h.write) throw new Refused(STATUS_CODE.FAILURE, 'Invalid handle');
      if (server.suspended) throw denied();
      const growth = Math.max(0, offset + data.length - h.size);
      const limit = limitBytes();
      if (growth > 0 && limit > 0 && (await server.disk.current()) + growth > limit) throw quota();
      for (let off = 0; off < data.length;) {
        off += (await h.fh.write(data, off, data.length - off, offset + off)).bytesWritten;
      }
      h.size += growth;
      server.disk.adjust(growth);
      ok(reqid);
    });
  });

  sftp.on('FSTAT', (reqid, hb) => {
    run(reqid, 'fstat', async () => {
      const h = lookup(hb);
      if (!h) throw new Refused(STATUS_CODE.FAILURE, 'Invalid handle');
      if (h.kind === 'file') {
        sftp.attrs(reqid, attrsOf(await h.fh.stat()));
        return;
      }
      await statPath(reqid, h.path);
    });
  });

  const setstat = async (reqid: number, p: string, attrs: Attributes) => {
    needWrite('file.update');
    if (typeof attrs.mode === 'number') {
      const st = await jail.lstat(p);
      if (!st) throw new Refused(STATUS_CODE.NO_SUCH_FILE, 'No such file');
      // Only the permission bits; never through a symlink (GHSA-rhq6-9rgh-v45c).
      const mode = st.isDirectory() ? 0o755 : attrs.mode & 0o777 || 0o644;
      await jail.chmod(p, mode);
    }
    ok(reqid);
  };
  sftp.on('SETSTAT', (reqid, p, attrs) => run(reqid, 'setstat', () => setstat(reqid, p, attrs)));
  sftp.on('FSETSTAT', (reqid, hb, attrs) => {
    run(reqid, 'fsetstat', async () => {
      const h = lookup(hb);
      if (!h) throw new Refused(STATUS_CODE.FAILURE, 'Invalid handle');
      await setstat(reqid, h.path, attrs);
    });
  });

  sftp.on('CLOSE', (reqid, hb) => {
    run(reqid, 'close', async () => {
      const h = lookup(hb);
      if (!h) throw new Refused(STATUS_CODE.FAILURE, 'Invalid handle');
      handles.delete(hb.readUInt32BE());
      if (h.kind === 'file') await h.fh.close();
      ok(reqid);
    });
  });

  sftp.on('OPENDIR', (reqid, p) => {
    run(reqid, 'opendir', async () => {
      need('file.read');
      roomForHandle();
      const entries = await jail.list(p);
      const names = entries.map((e) => ({
        filename: e.name,
        longname: longname(e.name, e.stat),
        attrs: attrsOf(e.stat),
      }));
      sftp.handle(reqid, handleId({ kind: 'dir', path: p, names }));
    });
  });

  sftp.on('READDIR', (reqid, hb) => {
    run(reqid, 'readdir', async () => {
      const h = lookup(hb);
      if (!h || h.kind !== 'dir') throw new Refused(STATUS_CODE.FAILURE, 'Invalid handle');
      if (h.names.length === 0) {
        sftp.status(reqid, STATUS_CODE.EOF);
        return;
      }
      sftp.name(reqid, h.names.splice(0, DIR_BATCH));
      await Promise.resolve();
    });
  });

  sftp.on('REMOVE', (reqid, p) => {
    run(reqid, 'remove', async () => {
      needWrite('file.delete');
      await jail.remove(p);
      opts.activity('server:sftp.delete', { files: [sftpClean(p)] });
      server.disk.refreshIfStale();
      ok(reqid);
    });
  });

  sftp.on('RMDIR', (reqid, p) => {
    run(reqid, 'rmdir', async () => {
      needWrite('file.delete');
      if (jail.parts(p).length === 0) throw denied();
      const st = await jail.lstat(p);
      if (!st) throw new Refused(STATUS_CODE.NO_SUCH_FILE, 'No such file');
      if (!st.isDirectory()) throw new Refused(STATUS_CODE.FAILURE, 'Not a directory');
      await jail.removeTree(p);
      opts.activity('server:sftp.delete', { files: [sftpClean(p)] });
      void server.disk.refresh();
      ok(reqid);
    });
  });

  sftp.on('MKDIR', (reqid, p) => {
    run(reqid, 'mkdir', async () => {
      needWrite('file.create');
      await jail.mkdirAll(p);
      opts.activity('server:sftp.create-directory', { files: [sftpClean(p)] });
      ok(reqid);
    });
  });

  sftp.on('RENAME', (reqid, from, to) => {
    run(reqid, 'rename', async () => {
      needWrite('file.update');
      await jail.rename(from, to);
      opts.activity('server:sftp.rename', { files: [{ from: sftpClean(from), to: sftpClean(to) }] });
      ok(reqid);
    });
  });

  sftp.on('READLINK', (reqid, p) => {
    run(reqid, 'readlink', async () => {
      need('file.read');
      const target = await jail.readlink(p);
      sftp.name(reqid, [{ filename: target, longname: target, attrs: {} as Attributes }]);
    });
  });

  sftp.on('SYMLINK', (reqid, linkPath, targetPath) => {
    run(reqid, 'symlink', async () => {
      needWrite('file.create');
      await jail.symlink(targetPath, linkPath);
      ok(reqid);
    });
  });

  sftp.on('EXTENDED', (reqid) => {
    sftp.status(reqid, STATUS_CODE.OP_UNSUPPORTED);
  });

  const closeAll = () => {
    for (const h of handles.values()) if (h.kind === 'file') void h.fh.close().catch(() => undefined);
    handles.clear();
  };
  sftp.on('close', closeAll);
  sftp.on('end', closeAll);
}
