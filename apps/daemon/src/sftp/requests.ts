import type { SFTPWrapper } from 'ssh2';
import type { ServerFiles } from '../fs/server-files.ts';
import type { Grant } from './grant.ts';
import type { HandleTable } from './handles.ts';
import type { SessionScope } from './scope.ts';
import type { WriteExtents } from './write-extents.ts';

/** An SFTP activity event for the panel (§8.14), recorded by the caller. */
export type SftpEvent = (event: string, metadata: Record<string, unknown>) => void;

/** What the request handlers of one session share. */
export interface SessionContext {
  sftp: SFTPWrapper;
  /** The server's files with their rules: the same operations the HTTP file routes use. */
  files: ServerFiles;
  grant: Grant;
  scope: SessionScope;
  handles: HandleTable;
  /** The server's table of files open for writing (all its sessions). */
  extents: WriteExtents;
  activity: SftpEvent;
}

/**
 * Register a request handler: `fn` answers the request itself; a refusal or an error it throws
 * becomes the request's SFTP status (see `session.ts`).
 */
export type On = <A extends unknown[]>(
  event: string,
  fn: (reqid: number, ...args: A) => Promise<void>,
) => void;
