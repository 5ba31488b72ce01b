/** Parses a wire date (ISO string) or null; invalid input is null. */
export function parseWireDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
