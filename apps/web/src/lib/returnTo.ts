/**
 * Where signing in returns to (spec 000 §4: "go to the intended address or '/'"): the signed-in
 * area sends a guest to /auth/login?next=<the address they opened> (app/signInPath.ts), and the
 * sign-in screens go there afterwards. `next` is typed by anyone (a link from a stranger), so only a
 * path on this panel is followed. The URL parser decides (it reads `/\host` and `/<tab>/host` as
 * `//host`), and its result is checked too: `/.//host` parses to the path `//host`, which a browser
 * would again read as another host. Never the sign-in screens themselves.
 */
export function safeReturnPath(next: string | null | undefined, origin = location.origin): string | null {
  if (next?.[0] !== '/') return null;
  try {
    const url = new URL(next, origin);
    const path = url.pathname + url.search + url.hash;
    return url.origin === origin && !/^\/(\/|auth\/)/u.test(path) ? path : null;
  } catch {
    return null;
  }
}
