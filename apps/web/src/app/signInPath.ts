/**
 * The sign-in address for a guest who opened `location`: /auth/login?next=<path?query#hash> (none for
 * the home page); the sign-in screens return there (lib/returnTo.ts checks it is this panel's).
 */
export function signInPathFor(location: { pathname: string; search: string; hash: string }): string {
  const here = `${location.pathname}${location.search}${location.hash}`;
  return here === '/' ? '/auth/login' : `/auth/login?next=${encodeURIComponent(here)}`;
}
