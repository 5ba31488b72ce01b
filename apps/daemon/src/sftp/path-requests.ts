import ssh2, { type Attributes } from 'ssh2';
import { attrsOf, longname, sftpClean } from './listing.ts';
import type { On, SessionContext } from './requests.ts';
import { denied, invalidHandle, noSuchFile } from './status.ts';

const { STATUS_CODE } = ssh2.utils.sftp;
/** Entries per READDIR answer. */
const DIR_BATCH = 100;

/**
 * Requests on names: STAT/LSTAT, OPENDIR/READDIR, REMOVE/RMDIR, MKDIR, RENAME, READLINK, SYMLINK.
 * REALPATH is answered in `session.ts` (lexical, no file touched).
 */
export function registerPathRequests(ctx: SessionContext, on: On): void {
  const { sftp, files, grant, scope, handles } = ctx;
  const jail = files.jail;
  const ok = (reqid: number) => sftp.status(reqid, STATUS_CODE.OK);

  const statPath = async (reqid: number, p: string) => {
    grant.need('file.read');
    scope.visible(p);
    const st = await jail.lstat(p);
    if (!st) throw noSuchFile();
    sftp.attrs(reqid, attrsOf(st));
  };
  on('STAT', statPath);
  on('LSTAT', statPath);

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
    ctx.activity('server:sftp.delete', { files: [sftpClean(p)] });
    ok(reqid);
  };
  on('REMOVE', remove('file'));
  on('RMDIR', remove('directory'));

  on('MKDIR', async (reqid, p: string) => {
    grant.needWrite('file.create');
    scope.requireInside(p);
    await files.mkdir(p);
    ctx.activity('server:sftp.create-directory', { files: [sftpClean(p)] });
    ok(reqid);
  });

  on('RENAME', async (reqid, from: string, to: string) => {
    grant.needWrite('file.update');
    scope.requireInside(from);
    scope.requireInside(to);
    if (!(await files.rename(from, to))) throw noSuchFile();
    ctx.activity('server:sftp.rename', { files: [{ from: sftpClean(from), to: sftpClean(to) }] });
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
}
