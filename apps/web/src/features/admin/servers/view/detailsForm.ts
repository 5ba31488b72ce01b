import { z } from 'zod';
import type { AdminServer, ServerDetailsBody } from '../../../../api/application/servers.ts';

/** PATCH …/details rules (reference §5.5), checked before sending; the API's 422s land on the same fields. */
export const detailsSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the server a name.')
    .max(191, 'The name may not be longer than 191 characters.'),
  user: z
    .number()
    .nullable()
    .refine((id) => id !== null, 'Choose the owner of the server.'),
  external_id: z.string().trim().max(191, 'The external ID may not be longer than 191 characters.'),
  description: z.string(),
});

/** The form's values: `user` is null until an owner is chosen (the schema refuses it then). */
export type DetailsValues = z.input<typeof detailsSchema>;
/** The checked values: an owner is chosen. */
export type CheckedDetails = z.output<typeof detailsSchema>;

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
