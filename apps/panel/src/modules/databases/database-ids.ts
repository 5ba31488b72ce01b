import Hashids from 'hashids';

/**
 * Client API database ids are Hashids strings of the row id (reference §1.6), with the panel's
 * HASHIDS_* settings, so ids of an existing installation stay the same. Paths also accept the
 * plain numeric id (§1.7).
 */
export class DatabaseIds {
  private readonly hashids: Hashids;

  constructor(settings: { salt: string; length: number; alphabet: string }) {
    this.hashids = new Hashids(settings.salt, settings.length, settings.alphabet);
  }

  encode(id: number): string {
    return this.hashids.encode(id);
  }

  /** The row id a path segment names, or null. */
  decode(value: string): number | null {
    try {
      const [first] = this.hashids.decode(value);
      if (first !== undefined && this.hashids.encode(first) === value) return Number(first);
    } catch {
      // not a Hashids string: maybe a plain id
    }
    return /^\d{1,9}$/u.test(value) ? Number(value) : null;
  }
}
