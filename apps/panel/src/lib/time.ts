/** Timestamps are stored as ISO-8601 UTC text on both databases. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** `2024-05-01T12:34:56+00:00`: the client API's date format (no fractional seconds). */
export function atom(iso: string | null): string | null {
  if (!iso) return null;
  return `${new Date(iso).toISOString().slice(0, 19)}+00:00`;
}

/** `2024-05-01T12:34:56.000000Z`: Laravel's JSON date format, used by the user bootstrap object. */
export function laravelJson(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 19)}.000000Z`;
}
