import type { AdminLocation, LocationInput } from '../../../api/application/locations.ts';
import { problemsResolver, type FormProblems } from '../components/problemsResolver.ts';

export interface LocationFormValues {
  short: string;
  /** '' for no description. */
  long: string;
}

/** The application API's location rules (short: required, 1–60; long: optional, up to 191). */
export function locationProblems(v: LocationFormValues): FormProblems<LocationFormValues> {
  const problems: FormProblems<LocationFormValues> = {};
  const short = v.short.trim();
  if (short === '') problems.short = 'A short code is required.';
  else if (short.length > 60) problems.short = 'The short code may not be longer than 60 characters.';
  if (v.long.trim().length > 191) problems.long = 'The description may not be longer than 191 characters.';
  return problems;
}

export const locationResolver = problemsResolver(locationProblems);

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
