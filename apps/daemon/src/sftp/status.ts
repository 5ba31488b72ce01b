import ssh2 from 'ssh2';
import { FileError } from '../fs/errors.ts';

const { STATUS_CODE } = ssh2.utils.sftp;

/** A refusal that carries its SFTP status. */
export class Refused extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const denied = () => new Refused(STATUS_CODE.PERMISSION_DENIED, 'Permission denied');
export const unsupported = () => new Refused(STATUS_CODE.OP_UNSUPPORTED, 'Operation unsupported');
export const noSuchFile = () => new Refused(STATUS_CODE.NO_SUCH_FILE, 'No such file');
export const invalidHandle = () => new Refused(STATUS_CODE.FAILURE, 'Invalid handle');

/** The shared operations' refusals (`fs/errors.ts`) as SFTP statuses. */
const BY_KIND: Record<FileError['kind'], { code: number; message: string }> = {
  not_found: { code: STATUS_CODE.NO_SUCH_FILE, message: 'No such file' },
  outside_root: { code: STATUS_CODE.PERMISSION_DENIED, message: 'Permission denied' },
  denylist: {
    code: STATUS_CODE.PERMISSION_DENIED,
    message: 'This file cannot be modified: present in egg denylist.',
  },
  bad_mode: { code: STATUS_CODE.PERMISSION_DENIED, message: 'setuid and setgid bits are not allowed' },
  no_space: { code: STATUS_CODE.FAILURE, message: 'Quota Exceeded' },
  exists: { code: STATUS_CODE.FAILURE, message: 'File exists' },
  is_directory: { code: STATUS_CODE.FAILURE, message: 'Is a directory' },
  bad_type: { code: STATUS_CODE.FAILURE, message: 'Failure' },
  too_long: { code: STATUS_CODE.FAILURE, message: 'Failure' },
};

/** The status of a failed request, or null for an unexpected error (logged by the caller). */
export function statusOf(err: unknown): { code: number; message: string } | null {
  if (err instanceof Refused) return { code: err.code, message: err.message };
  if (err instanceof FileError) return BY_KIND[err.kind];
  return null;
}
