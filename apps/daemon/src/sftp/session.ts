import { can } from '@talon/shared';
import ssh2, { type Attributes, type SFTPWrapper } from 'ssh2';
import type { Logger } from 'pino';
import type { ServerFiles } from '../fs/server-files.ts';
import type { Server } from '../servers/server.ts';
import type { FolderScope } from '@talon/shared/files/scope';
import { HandleTable } from './handles.ts';
import { SessionScope } from './scope.ts';
import { attrsOf, longname, sftpClean } from './listing.ts';
import { denied, invalidHandle, noSuchFile, statusOf, unsupported } from './status.ts';

const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;
/** Bytes answered per READ at most (clients ask for 32 KiB; OpenSSH allows up to 256 KiB). */
const MAX_READ = 256 * 1024;
/** Entries per READDIR answer. */
const DIR_BATCH = 100;
const WRITE_FLAGS = OPEN_MODE.WRITE | OPEN_MODE.APPEND | OPEN_MODE.CREAT | OPEN_MODE.TRUNC;

/** An SFTP activity event for the panel (§8.14), recorded by the caller. */
export type SftpEvent = (event: string, metadata: Record<string, unknown>) => void;

export interface SessionOptions {
  server: Server;
  /** The server's files with their rules: the same operations the HTTP file routes use. */
  files: ServerFiles;
  permissions: string[];
  /** Our extension: the only folders this session may use (the jail of `files` has them too); null = all */
  folders?: FolderScope;
  readOnly: boolean;
  log: Logger;
  activity: SftpEvent;
}

/** What the panel granted at login (§8.12): each request checks it, and suspension, anew. */
class Grant {
  constructor(private readonly o: SessionOptions) {}

  need(permission: string): void {
    if (this.o.server.suspended || !can(this.o.permissions, permission)) throw denied();
  }

  /** A change: also refused ("unsupported") on a read-only node. */
  needWrite(permission: string): void {
    if (this.o.readOnly) throw unsupported();
    this.need(permission);
  }
}

/**
 * One SFTP subsystem bound to one server. This file is the protocol only: each request checks the
 * grant (`Grant`), then calls the shared file operations (`fs/server-files.ts`, where the denylist,
 * mode and quota rules live) and answers; statuses come from `status.ts`, handles from
 * `handles.ts`. Nothing here touches the filesystem by name.
 */
export function serveSftp(sftp: SFTPWrapper, opts: SessionOptions): void {
  const { server, files } = opts;
  const jail = files.jail;
  const grant = new Grant(opts);
  const scope = new SessionScope(opts.folders ?? null);
  const handles = new HandleTable();

  /** Run one request; refusals and the operations' errors become SFTP statuses. */
  const on = <A extends unknown[]>(event: string, fn: (reqid: number, ...args: A) => Promise<void>) => {
    sftp.on(
      event as 'OPEN',
      ((reqid: number, ...args: A) => {
        fn(reqid, ...args).catch((err: unknown) => {
          const status = statusOf(err) ?? { code: STATUS_CODE.FAILURE, message: 'Failure' };
          if (!statusOf(err)) opts.log.warn({ err, op: event, server: server.uuid }, 'sftp operation failed');
          try {
            sftp.status(reqid, status.code, status.message);
          } catch {
            // channel gone
          }
        });
      }) as never,
    );
  };
  const ok = (reqid: number) => sftp.status(reqid, STATUS_CODE.OK);
  const fileHandle = (hb: Buffer) => {
    const h = handles.get(hb);
    if (!h || h.kind !== 'file') throw invalidHandle();
    return h;
  };

  sftp.on('REALPATH', (reqid, p) => {
    const clean = sftpClean(p);
    sftp.name(reqid, [{ filename: clean, longname: clean, attrs: {} as Attributes }]);
  });

  const statPath = async (reqid: number, p: string) => {
    grant.need('file.read');
    scope.visible(p);
    const st = await jail.lstat(p);
    if (!st) throw noSuchFile();
    sftp.attrs(reqid, attrsOf(st));
  };
  on('STAT', statPath);
  on('LSTAT', statPath);

  on('OPEN', async (reqid, filename: string, flags: number) => {
    handles.checkRoom();
    scope.requireInside(filename);
    if ((flags & WRITE_FLAGS) === 0) {
      grant.need('file.read-content');
      const { handle, stat } = await jail.openRead(filename);
      sftp.handle(
        reqid,
        handles.add({ kind: 'file', path: filename, fh: handle, write: false, size: stat.size }),
      );
      return;
    }
    if ((flags & OPEN_MODE.READ) !== 0) grant.need('file.read-content');
    grant.needWrite((await jail.lstat(filename)) ? 'file.update' : 'file.create');
    const { handle, created } = await files.openWrite(filename);
    sftp.handle(reqid, handles.add({ kind: 'file', path: filename, fh: handle, write: true, size: 0 }));
    opts.activity(created ? 'server:sftp.create' : 'server:sftp.write', { files: [sftpClean(filename)] });
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
    if (!h.write) throw invalidHandle();
    if (server.suspended) throw denied();
    const growth = Math.max(0, offset + data.length - h.size);
    await files.reserve(growth);
    for (let off = 0; off < data.length;) {
      off += (await h.fh.write(data, off, data.length - off, offset + off)).bytesWritten;
    }
    h.size += growth;
    ok(reqid);
  });

  on('FSTAT', async (reqid, hb: Buffer) => {
    const h = handles.get(hb);
    if (!h) throw invalidHandle();
    if (h.kind === 'file') sftp.attrs(reqid, attrsOf(await h.fh.stat()));
    else await statPath(reqid, h.path);
  });

  const setstat = async (reqid: number, p: string, attrs: Attributes) => {
    grant.needWrite('file.update');
    scope.requireInside(p);
    // Only the permission bits, through the shared chmod: never through a link
    // (GHSA-rhq6-9rgh-v45c), never setuid/setgid.
    if (typeof attrs.mode === 'number' && !(await files.chmod(p, attrs.mode & 0o7777))) throw noSuchFile();
    ok(reqid);
  };
  on('SETSTAT', setstat);
  on('FSETSTAT', async (reqid, hb: Buffer, attrs: Attributes) => {
    const h = handles.get(hb);
    if (!h) throw invalidHandle();
    await setstat(reqid, h.path, attrs);
  });

  on('CLOSE', async (reqid, hb: Buffer) => {
    const h = handles.take(hb);
    if (!h) throw invalidHandle();
    if (h.kind === 'file') await h.fh.close();
    ok(reqid);
  });

  on('OPENDIR', async (reqid, p: string) => {
    grant.need('file.read');
    handles.checkRoom();
    const shown = scope.visible(p);
    const entries = (await jail.list(p)).filter((e) => shown(e.name));
    const names = entries.map((e) => ({
      filename: e.name,
      longname: longname(e.name, e.stat),
      attrs: attrsOf(e.stat),
    }));
    sftp.handle(reqid, handles.add({ kind: 'dir', path: p, names }));
  });

  on('READDIR', async (reqid, hb: Buffer) => {
    const h = handles.get(hb);
    if (!h || h.kind !== 'dir') throw invalidHandle();
    if (h.names.length === 0) sftp.status(reqid, STATUS_CODE.EOF);
    else sftp.name(reqid, h.names.splice(0, DIR_BATCH));
    await Promise.resolve();
  });

  const remove = (kind: 'file' | 'directory') => async (reqid: number, p: string) => {
    grant.needWrite('file.delete');
    if (jail.parts(p).length === 0) throw denied();
    scope.requireInside(p);
    if (!(await files.delete(p, kind))) throw noSuchFile();
    opts.activity('server:sftp.delete', { files: [sftpClean(p)] });
    ok(reqid);
  };
  on('REMOVE', remove('file'));
  on('RMDIR', remove('directory'));

  on('MKDIR', async (reqid, p: string) => {
    grant.needWrite('file.create');
    scope.requireInside(p);
    await files.mkdir(p);
    opts.activity('server:sftp.create-directory', { files: [sftpClean(p)] });
    ok(reqid);
  });

  on('RENAME', async (reqid, from: string, to: string) => {
    grant.needWrite('file.update');
    scope.requireInside(from);
    scope.requireInside(to);
    if (!(await files.rename(from, to))) throw noSuchFile();
    opts.activity('server:sftp.rename', { files: [{ from: sftpClean(from), to: sftpClean(to) }] });
    ok(reqid);
  });

  on('READLINK', async (reqid, p: string) => {
    grant.need('file.read');
    scope.requireInside(p);
    const target = await jail.readlink(p);
    sftp.name(reqid, [{ filename: target, longname: target, attrs: {} as Attributes }]);
  });

  on('SYMLINK', async (reqid, linkPath: string, targetPath: string) => {
    grant.needWrite('file.create');
    scope.requireLinkInside(linkPath, targetPath);
    await jail.symlink(targetPath, linkPath);
    ok(reqid);
  });

  sftp.on('EXTENDED', (reqid) => {
    sftp.status(reqid, STATUS_CODE.OP_UNSUPPORTED);
  });

  sftp.on('close', () => handles.closeAll());
  sftp.on('end', () => handles.closeAll());
}
