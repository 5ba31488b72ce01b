import type { Location } from '../../db/types.ts';
import { atom } from '../../lib/time.ts';

/** The application API's `location` object (reference §5.1). */
export function locationAttributes(l: Location) {
  return {
    id: l.id,
    short: l.short,
    long: l.long,
    updated_at: atom(l.updated_at),
    created_at: atom(l.created_at),
  };
}
