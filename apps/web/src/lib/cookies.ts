/** Value of a cookie from a `document.cookie` string, URL-decoded; null when absent. */
export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/** The X-XSRF-TOKEN header value: the XSRF-TOKEN cookie, or `nil` (spec §7). */
export function xsrfToken(cookies: string): string {
  return readCookie(cookies, 'XSRF-TOKEN') ?? 'nil';
}
