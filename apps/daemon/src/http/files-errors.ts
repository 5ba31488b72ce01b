import type { FileError, FileErrorKind } from '../fs/errors.ts';

export const NOT_FOUND_MESSAGE = 'The requested resources was not found on the system.';

/** Wings' answers for filesystem errors (protocol §2.1), the one place kinds become HTTP. */
const REPLIES: Record<FileErrorKind, { status: number; error: string }> = {
  not_found: { status: 404, error: NOT_FOUND_MESSAGE },
  // Wings ≤ 1.11.8 answered 404 for "bad path resolution"; 1.11.9–1.11.11 answer 500 by accident.
  outside_root: { status: 404, error: NOT_FOUND_MESSAGE },
  is_directory: { status: 400, error: 'Cannot perform that action: file is a directory.' },
  too_long: { status: 400, error: 'Cannot perform that action: file name is too long.' },
  denylist: { status: 403, error: 'This file cannot be modified: present in egg denylist.' },
  no_space: { status: 400, error: 'There is not enough disk space available to perform that action.' },
  bad_type: { status: 400, error: 'Cannot open files of this type.' },
  exists: { status: 400, error: 'Cannot perform that action: a file by that name already exists.' },
  // Not in Wings: it applies any mode; the daemon runs as root and never makes a set-id file.
  bad_mode: { status: 400, error: 'Invalid file mode: setuid and setgid bits are not allowed.' },
};

export function fileErrorReply(err: FileError): { status: number; error: string } {
  return REPLIES[err.kind];
}
