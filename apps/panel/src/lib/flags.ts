/** A boolean as the original's validator accepts it: `true`, `1` or `"1"`. */
export function isTrue(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}
