/** Pages shown around the current one (spec 000 §9): current−2 … current+5, clamped to 1…total. */
export function pageWindow(current: number, total: number): number[] {
  const first = Math.max(1, current - 2);
  const last = Math.min(Math.max(total, 1), current + 5);
  const pages: number[] = [];
  for (let page = first; page <= last; page++) pages.push(page);
  return pages;
}

/** The `page` query parameter: a positive integer, anything else means page 1. */
export function parsePage(raw: string | null): number {
  const page = raw === null ? NaN : Number(raw);
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** The dashboard's address for a page (spec 000 §2): `/` for page 1, otherwise `/?page={n}`. */
export function pageAddress(page: number): string {
  return page <= 1 ? '/' : `/?page=${page}`;
}
