import ssh2, { type Attributes, type SFTPWrapper } from 'ssh2';
import type { Logger } from 'pino';
import type { ServerFiles } from '../fs/server-files.ts';
import type { Server } from '../servers/server.ts';
import type { FolderScope } from '@talon/shared/files/scope';
import { registerFileRequests } from './file-requests.ts';
import { Grant } from './grant.ts';
import { HandleTable } from './handles.ts';
import { sftpClean } from './listing.ts';
import { registerPathRequests } from './path-requests.ts';
import type { On, SessionContext, SftpEvent } from './requests.ts';
import { SessionScope } from './scope.ts';
import { statusOf } from './status.ts';
import { WriteExtents } from './write-extents.ts';

export type { SftpEvent } from './requests.ts';

const { STATUS_CODE } = ssh2.utils.sftp;

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

/** Each server's files open for writing over SFTP, shared by its sessions (`write-extents.ts`). */
const extentsByServer = new WeakMap<Server, WriteExtents>();

function extentsOf(server: Server): WriteExtents {
  let t = extentsByServer.get(server);
  if (!t) {
    t = new WriteExtents();
    extentsByServer.set(server, t);
  }
  return t;
}

/**
 * One SFTP subsystem bound to one server. Each request checks the grant (`grant.ts`), then calls
 * the shared file operations (`fs/server-files.ts`, where the denylist, mode and quota rules live)
 * and answers: requests on open files in `file-requests.ts`, on names in `path-requests.ts`;
 * statuses come from `status.ts`, handles from `handles.ts`. Nothing here touches the filesystem by
 * name. A request's failure is its status, never the session's or the daemon's end.
 */
export function serveSftp(sftp: SFTPWrapper, opts: SessionOptions): void {
  const { server, log } = opts;
  const handles = new HandleTable();
  const ctx: SessionContext = {
    sftp,
    files: opts.files,
    grant: new Grant(server, opts.permissions, opts.readOnly),
    scope: new SessionScope(opts.folders ?? null),
    handles,
    extents: extentsOf(server),
    activity: opts.activity,
  };

  /** Run one request; refusals and the operations' errors become SFTP statuses. */
  const on: On = (event, fn) => {
    const handler = fn as (reqid: number, ...args: unknown[]) => Promise<void>;
    sftp.on(
      event as 'OPEN',
      ((reqid: number, ...args: unknown[]) => {
        handler(reqid, ...args).catch((err: unknown) => {
          const status = statusOf(err) ?? { code: STATUS_CODE.FAILURE, message: 'Failure' };
          if (!statusOf(err)) log.warn({ err, op: event, server: server.uuid }, 'sftp operation failed');
          try {
            sftp.status(reqid, status.code, status.message);
          } catch {
            // channel gone
          }
        });
      }) as never,
    );
  };

  sftp.on('REALPATH', (reqid, p) => {
    const clean = sftpClean(p);
    sftp.name(reqid, [{ filename: clean, longname: clean, attrs: {} as Attributes }]);
  });
  registerFileRequests(ctx, on);
  registerPathRequests(ctx, on);
  sftp.on('EXTENDED', (reqid) => {
    sftp.status(reqid, STATUS_CODE.OP_UNSUPPORTED);
  });

  // A malformed packet ends this subsystem (ssh2 closes the channel after the event); without a
  // listener the event would be thrown instead (CVE-2026-52856).
  sftp.on('error', (err: Error) => log.debug({ err, server: server.uuid }, 'sftp protocol error'));
  sftp.on('close', () => handles.closeAll());
  sftp.on('end', () => handles.closeAll());
}
