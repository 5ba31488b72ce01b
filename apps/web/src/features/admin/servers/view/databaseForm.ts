import type { FieldErrors, ResolverResult } from 'react-hook-form';
import { DATABASE_NAME_MAX, DATABASE_VALIDATION_MESSAGES as M } from '@talon/shared/validation/databases';

/**
 * The new database form's rules: the application API's (reference §5.6 and docs/api.md: a name of
 * 1–48 letters, digits, `_`, `-`, `.`; `remote` matching `^[0-9%.]{1,15}$`; a host), with the
 * spec's messages from packages/shared.
 */
export interface DatabaseValues {
  database: string;
  remote: string;
  /** The host's id ('' picks the first host listed). */
  host: string;
}

const NAME = /^[A-Za-z0-9_.-]+$/u;
const REMOTE = /^[0-9%.]{1,15}$/u;

export function databaseNameProblem(value: string): string | null {
  const name = value.trim();
  if (name === '') return M.nameRequired;
  if (name.length > DATABASE_NAME_MAX) return M.nameMax;
  return NAME.test(name) ? null : M.namePattern;
}

export function databaseRemoteProblem(value: string): string | null {
  const remote = value.trim();
  if (remote === '') return M.remoteRequired;
  return REMOTE.test(remote) ? null : M.remoteInvalid;
}

export function databaseFormError(values: DatabaseValues): ResolverResult<DatabaseValues> {
  const errors: FieldErrors<DatabaseValues> = {};
  const name = databaseNameProblem(values.database);
  const remote = databaseRemoteProblem(values.remote);
  if (name) errors.database = { type: 'validate', message: name };
  if (remote) errors.remote = { type: 'validate', message: remote };
  return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
}

export function databaseFieldForWire(wire: string): keyof DatabaseValues | null {
  return wire === 'database' || wire === 'remote' || wire === 'host' ? wire : null;
}
