const TRIPLETS = ['---', '--x', '-w-', '-wx', 'r--', 'r-x', 'rw-', 'rwx'] as const;

/**
 * Unix permission bits as a string (spec §9): 0o755 → `rwxr-xr-x`. A string input is read as octal
 * ('0755' or '755'); only the lowest nine bits count, special bits are not shown.
 */
export function formatModeBits(mode: number | string): string {
  const value = typeof mode === 'string' ? parseInt(mode, 8) : mode;
  if (!Number.isFinite(value)) return '---------';
  const bits = value & 0o777;
  return TRIPLETS[(bits >> 6) & 7]! + TRIPLETS[(bits >> 3) & 7]! + TRIPLETS[bits & 7]!;
}
