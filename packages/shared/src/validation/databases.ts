/**
 * Rules for a server's databases, in one place for the web form and the panel API.
 *
 * The web form (spec 001 §5) shows the spec's messages word for word. The API answers 422s with the
 * reference's Laravel rules and messages (§3.3 "Databases", §5.6). Both accept the same names: the
 * API also takes the periods the spec's form allows (the original's `alpha_dash` refused them, so a
 * name the form accepted failed on submit).
 * Plain functions (no zod) so the web's first chunk does not grow.
 */

/** Longest stored database name, `s<server id>_` prefix included (reference §3.3). */
export const DATABASE_NAME_MAX = 48;
/** Shortest name a client may ask for (client API, spec 001 §5); the application API allows 1. */
export const DATABASE_NAME_MIN = 3;
/** The default `remote` / "Connections from" value: any address. */
export const DATABASE_DEFAULT_REMOTE = '%';

/** The spec's messages (spec 001 §5), word for word. */
export const DATABASE_VALIDATION_MESSAGES = {
  nameRequired: 'A database name must be provided.',
  nameMin: 'Database name must be at least 3 characters.',
  nameMax: 'Database name must not exceed 48 characters.',
  namePattern:
    'Database name should only contain alphanumeric characters, underscores, dashes, and/or periods.',
  remoteRequired: 'A connection value must be provided.',
  remoteInvalid: 'A valid connection address must be provided.',
  deleteConfirm: 'The database name must be provided.',
} as const;

/** Reference messages of the API's own checks (§3.3). */
export const DATABASE_API_MESSAGES = {
  nameTaken: 'The database name you have selected is already in use by this server.',
  duplicate: 'A database with that name already exists for this server.',
  noHost: 'No database host was found that meets the requirements for this server.',
  tooMany: 'Operation aborted: creating a new database would put this server over the defined limit.',
  /** Ours: the original answers a bare 500 here (reference §7 quirk 10). */
  disabled: 'Databases cannot be created for servers on this panel: the operator has disabled it.',
} as const;

const FORM_NAME = /^[A-Za-z0-9_.-]+$/u;
/** Up to four dot-separated parts, each 1–3 digits or `%` (spec 001 §5). */
const FORM_REMOTE = /^(?:\d{1,3}|%)(?:\.(?:\d{1,3}|%)){0,3}$/u;

/** The web form's database-name message for `value`, or null when it is acceptable. */
export function databaseNameError(value: string): string | null {
  const M = DATABASE_VALIDATION_MESSAGES;
  if (value.trim() === '') return M.nameRequired;
  if (value.length < DATABASE_NAME_MIN) return M.nameMin;
  if (value.length > DATABASE_NAME_MAX) return M.nameMax;
  return FORM_NAME.test(value) ? null : M.namePattern;
}

/** The web form's "Connections from" message for `value`, or null when it is acceptable. */
export function databaseRemoteError(value: string): string | null {
  const M = DATABASE_VALIDATION_MESSAGES;
  if (value.trim() === '') return M.remoteRequired;
  return FORM_REMOTE.test(value) ? null : M.remoteInvalid;
}

/**
 * The delete confirmation (spec 001 §5): what was typed equals the name after the first
 * underscore (the part the user chose) or the full name.
 */
export function databaseDeleteConfirmed(fullName: string, typed: string): boolean {
  const i = fullName.indexOf('_');
  const short = i === -1 ? fullName : fullName.slice(i + 1);
  return typed === fullName || typed === short;
}

/**
 * ASCII letters, digits, `_`, `-` and `.`: the form's characters (spec 001 §5), without the Unicode
 * letters of `alpha_dash` (the name becomes an identifier on the host, always quoted).
 */
export const API_DATABASE_NAME = /^[A-Za-z0-9_.-]+$/u;
/** Client API `remote` (reference §3.3). */
export const API_CLIENT_REMOTE = /^[\w\-/.%:]+$/u;
/** Application API `remote` (reference §5.6). */
export const API_APPLICATION_REMOTE = /^[0-9%.]{1,15}$/u;

/** The stored name: `s<server id>_<name>`, cut to 48 characters (reference §3.3). */
export function prefixedDatabaseName(serverId: number, name: string): string {
  return `s${serverId}_${name}`.slice(0, DATABASE_NAME_MAX);
}
