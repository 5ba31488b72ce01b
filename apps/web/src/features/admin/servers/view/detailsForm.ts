import type { Resolver } from 'react-hook-form';
import type { AdminServer, ServerDetailsBody } from '../../../../api/application/servers.ts';
import { problemsResolver, type FormProblems } from '../../components/problemsResolver.ts';

/** The form's values: `user` is null until an owner is chosen (the rules refuse it then). */
export interface DetailsValues {
  name: string;
  user: number | null;
  external_id: string;
  description: string;
}
/** The checked values: an owner is chosen. */
export type CheckedDetails = DetailsValues & { user: number };

/** PATCH …/details rules (reference §5.5), checked before sending; the API's 422s land on the same fields. */
export function detailsProblems(v: DetailsValues): FormProblems<DetailsValues> {
  const problems: FormProblems<DetailsValues> = {};
  const name = v.name.trim();
  if (name === '') problems.name = 'Give the server a name.';
  else if (name.length > 191) problems.name = 'The name may not be longer than 191 characters.';
  if (v.user === null) problems.user = 'Choose the owner of the server.';
  if (v.external_id.trim().length > 191)
    problems.external_id = 'The external ID may not be longer than 191 characters.';
  return problems;
}

/** Only values with an owner pass (detailsProblems refuses a null one), hence CheckedDetails. */
export const detailsResolver = problemsResolver(detailsProblems, (v) => ({
  ...v,
  name: v.name.trim(),
  external_id: v.external_id.trim(),
})) as Resolver<DetailsValues, unknown, CheckedDetails>;

export function toDetailsValues(server: AdminServer): DetailsValues {
  return {
    name: server.name,
    user: server.userId,
    external_id: server.externalId ?? '',
    description: server.description,
  };
}

/** All four fields, always: the API writes each one as given (an absent external ID is cleared). */
export function toDetailsBody(values: CheckedDetails): ServerDetailsBody {
  return {
    name: values.name.trim(),
    user: values.user,
    external_id: values.external_id.trim() || null,
    description: values.description,
  };
}

export function detailsFieldForWire(wire: string): keyof DetailsValues | null {
  return wire === 'name' || wire === 'user' || wire === 'external_id' || wire === 'description' ? wire : null;
}
