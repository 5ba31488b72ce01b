const UNITS = ['Bytes', 'kB', 'MB', 'GB', 'TB'] as const;

/** Human-readable size with 2 decimals (spec §3): 1536 → `1.50 kB`. Powers of 1024. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1) return '0 Bytes';
  const exp = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  const value = bytes / 1024 ** exp;
  return `${value.toFixed(2)} ${UNITS[exp]}`;
}

/**
 * The same scale in fewer characters, for graph axes: at most one decimal and only below 10
 * (1536 → `1.5 kB`, 512 → `512 B`, 0 → `0 B`).
 */
export function formatBytesShort(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1) return '0 B';
  const exp = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  const value = bytes / 1024 ** exp;
  return `${Number(value.toFixed(value < 10 && exp > 0 ? 1 : 0))} ${exp === 0 ? 'B' : UNITS[exp]}`;
}

/** Megabytes (as the API stores limits) to bytes: times 1024 squared. */
export function megabytesToBytes(mb: number): number {
  return mb * 1024 * 1024;
}
