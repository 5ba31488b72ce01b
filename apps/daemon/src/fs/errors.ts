/**
 * Why a file operation was refused. The HTTP layer maps each kind to Wings' status and message once
 * (`http/files-errors.ts`); `detail` is for logs and tests, never shown to users.
 */
export type FileErrorKind =
  | 'not_found'
  | 'outside_root'
  | 'is_directory'
  | 'bad_type'
  | 'too_long'
  | 'denylist'
  | 'no_space'
  | 'exists'
  | 'bad_mode';

export class FileError extends Error {
  constructor(
    readonly kind: FileErrorKind,
    readonly detail: string,
  ) {
    super(`${kind}: ${detail}`);
  }
}

const BY_CODE: Record<string, FileErrorKind> = {
  ENOENT: 'not_found',
  ENOTDIR: 'not_found',
  ELOOP: 'outside_root', // O_NOFOLLOW met a symlink as final component, or too many links
  EISDIR: 'is_directory',
  ENXIO: 'bad_type', // a socket, or a FIFO without a reader
  ENAMETOOLONG: 'too_long',
  EEXIST: 'exists',
};

/** A FileError for an OS error with a known errno; anything else is returned unchanged. */
export function fromOs(err: unknown, what: string): unknown {
  if (err instanceof FileError) return err;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const kind = code ? BY_CODE[code] : undefined;
  return kind ? new FileError(kind, `${what}: ${code}`) : err;
}

export function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}
