import { z } from 'zod';
import type { AdminLocation, LocationInput } from '../../../api/application/locations.ts';

/** The application API's location rules (short: required, 1–60; long: optional, up to 191). */
export const locationFormSchema = z.object({
  short: z
    .string()
    .trim()
    .min(1, 'A short code is required.')
    .max(60, 'The short code may not be longer than 60 characters.'),
  long: z.string().trim().max(191, 'The description may not be longer than 191 characters.'),
});

export type LocationFormValues = z.infer<typeof locationFormSchema>;

export const EMPTY_LOCATION: LocationFormValues = { short: '', long: '' };

export function toLocationFormValues(location: AdminLocation): LocationFormValues {
  return { short: location.short, long: location.long ?? '' };
}

export function toLocationInput(values: LocationFormValues): LocationInput {
  return { short: values.short.trim(), long: values.long.trim() };
}

export function locationFieldForWire(wire: string): keyof LocationFormValues | null {
  return wire === 'short' || wire === 'long' ? wire : null;
}
