import * as z from 'zod/mini';

/** Email length limit of the subuser form and of `POST …/users` (spec 001 §5, reference §3.3). */
export const SUBUSER_EMAIL_MAX = 191;
/** How many folders a subuser's `file_paths` may list (our extension). */
export const SUBUSER_FILE_PATHS_MAX = 20;
/** Length limit of one `file_paths` entry. */
export const SUBUSER_FILE_PATH_MAX_LENGTH = 255;

/**
 * Messages of the subuser (Users tab) form. The email ones are spec 001 §5's, word for word; the
 * folder ones belong to our `file_paths` extension, which the spec does not know.
 */
export const SUBUSER_VALIDATION_MESSAGES = {
  emailInvalid: 'A valid email address must be provided.',
  emailMax: 'Email addresses must not exceed 191 characters.',
  filePathsMax: 'A user can be limited to at most 20 folders.',
  filePathInvalid:
    'A folder must be a path from the server root, such as /plugins: it starts with a slash, has no empty, "." or ".." parts and does not end with a slash.',
  filePathTooLong: 'A folder path must not exceed 255 characters.',
} as const;

const M = SUBUSER_VALIDATION_MESSAGES;

/**
 * Whether `path` is an absolute, normalised folder path (`/`, `/plugins`, `/world/region`): a
 * leading slash, no trailing slash, no empty, `.` or `..` segment, no backslash or NUL. Such a path
 * means the same folder to the panel, the daemon's file jail and SFTP, so nothing re-normalises it.
 */
export function isNormalisedFolderPath(path: string): boolean {
  if (path === '/') return true;
  if (!path.startsWith('/') || path.endsWith('/')) return false;
  if (/[\\\0]/.test(path)) return false;
  return path
    .slice(1)
    .split('/')
    .every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** The message for one `file_paths` entry, or null when it is acceptable. */
export function filePathError(path: unknown): string | null {
  if (typeof path !== 'string' || !isNormalisedFolderPath(path)) return M.filePathInvalid;
  if (path.length > SUBUSER_FILE_PATH_MAX_LENGTH) return M.filePathTooLong;
  return null;
}

/**
 * Turns what someone typed (`plugins/`, ` /world//nether `) into the normalised form, or returns
 * null when it cannot be one (a `..` part). Forms call it before sending; the API only accepts the
 * normalised form.
 */
export function normaliseFolderPath(input: string): string | null {
  const segments = input
    .trim()
    .split(/[\\/]+/)
    .filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return null;
  return `/${segments.join('/')}`;
}

/**
 * The subuser form's email (spec 001 §5): required, valid, at most 191 characters. Built only with
 * zod functions the sign-in page already uses: zod's code is in a chunk that page loads, so a
 * function used anywhere in the web app (z.array, z.optional…) grows it. The full form schema is
 * in subuser-form.ts for that reason.
 */
export const subuserEmailSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: M.emailInvalid, abort: true }),
    z.maxLength(SUBUSER_EMAIL_MAX, { error: M.emailMax, abort: true }),
    z.email(M.emailInvalid),
  );

/** The `server_subuser` wire object (reference §3.1), plus our optional `file_paths`. */
export interface SubuserWire {
  uuid: string;
  username: string;
  email: string;
  image: string;
  '2fa_enabled': boolean;
  created_at: string;
  permissions: string[];
  /** Folders the subuser's file permissions are limited to; absent or null = the whole server. */
  file_paths?: string[] | null;
}
