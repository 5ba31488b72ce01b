/**
 * Where signing in returns to (spec 000 §4: "go to the intended address or '/'"): the signed-in
 * area sends a guest to /auth/login?next=<the address they opened>, and the sign-in screens go there
 * afterwards. `next` is typed by anyone (a link from a stranger), so only a path on this panel is
 * followed: never another origin (`//host`, `https:`, `/\host`, which browsers read as `//host`), and
 * never the sign-in screens themselves.
 */
export function safeReturnPath(
  next: string | null | undefined,
  origin = window.location.origin,
): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//')) return null;
  // A backslash, tab or line break: URL parsing turns `/\host` and `/<tab>/host` into `//host`.
  if ([...next].some((c) => c === '\\' || c.charCodeAt(0) < 0x20)) return null;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.pathname.startsWith('/auth/')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in address for a guest who opened `location` (no `next` for the home page). */
export function signInPathFor(location: { pathname: string; search: string; hash: string }): string {
  const here = `${location.pathname}${location.search}${location.hash}`;
  return here === '/' ? '/auth/login' : `/auth/login?next=${encodeURIComponent(here)}`;
}
