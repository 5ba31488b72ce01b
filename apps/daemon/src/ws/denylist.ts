/** The claims a denial is matched on (websocket and signed-URL tokens both have them). */
export interface DeniableClaims {
  iat?: number;
  /** Our extension: the issue time in ms, only used to order a token within its `iat` second. */
  issued_at_ms?: number;
  jti?: string;
  user_uuid?: string;
  server_uuid?: string;
}

/** Denials of a user: per server, and for every server of the node (`ALL`). */
const ALL = '*';

/**
 * Token revocation (Wings protocol §3.7, §9.2b), global to the node and in memory only:
 * - tokens issued before this daemon started are refused (clients fetch fresh ones after a restart);
 *   a token issued in the boot second itself is accepted, so a client that connects right after a
 *   restart is not bounced;
 * - `POST /api/servers/:server/ws/deny` records jti → time; `POST /api/deauthorize-user` records
 *   user (on some servers or all) → time. A token matching a denial and issued at or before it is
 *   refused; newer ones work.
 *
 * "Issued at or before" (issue 23 item 9): `iat` has one-second resolution and the denial a
 * millisecond one. A token whose `iat` second is before the denial's is older, after it is newer.
 * In the denial's own second only `issued_at_ms` (our claim, signed beside `iat`) can tell: the token
 * is refused when that is at or before the denial. Without it (a panel that does not sign it, or one
 * that disagrees with `iat`), a same-second token is refused: it may have been issued just before.
 * Both times are compared across machines, so this relies on the panel's and node's clocks agreeing
 * (NTP), as the `iat` comparison always has.
 */
export class Denylist {
  private readonly denied = new Map<string, number>();
  private readonly users = new Map<string, Map<string, number>>();
  private readonly bootSecond: number;
  /** Grows with every denial: a token found good stays good until this changes (or it expires). */
  version = 0;

  constructor(bootMs = Date.now()) {
    this.bootSecond = Math.floor(bootMs / 1000);
  }

  deny(jtis: string[], atMs = Date.now()): void {
    for (const j of jtis) this.denied.set(j, atMs);
    this.version++;
  }

  /** Deny a user's tokens for `servers`, or for every server when none are named. */
  denyUser(user: string, servers: readonly string[] | undefined, atMs = Date.now()): void {
    const byServer = this.users.get(user) ?? new Map<string, number>();
    for (const s of servers ?? [ALL]) byServer.set(s, Math.max(atMs, byServer.get(s) ?? 0));
    this.users.set(user, byServer);
    this.version++;
  }

  /**
   * Signed URLs (download, upload): only a denial counts (no boot rule, as Wings has none for them).
   * Wings does not check these at all; the panel denies a user's tokens when they lose the server,
   * and a 15-minute URL handed out before must stop working too.
   */
  isRevoked(claims: DeniableClaims): boolean {
    return this.deniedAt(claims).some((at) => issuedAtOrBefore(claims, at));
  }

  isDenied(claims: DeniableClaims): boolean {
    if (claims.iat === undefined) return true;
    if (claims.iat < this.bootSecond) return true;
    return this.isRevoked(claims);
  }

  /** The times of the denials that match the token's jti or user. */
  private deniedAt(claims: DeniableClaims): number[] {
    const at: (number | undefined)[] = [];
    if (claims.jti !== undefined) at.push(this.denied.get(claims.jti));
    const byServer = claims.user_uuid === undefined ? undefined : this.users.get(claims.user_uuid);
    if (byServer) {
      at.push(byServer.get(ALL));
      if (claims.server_uuid !== undefined) at.push(byServer.get(claims.server_uuid));
    }
    return at.filter((t) => t !== undefined);
  }
}

/** Whether the token was issued at or before `atMs` (see the rule above); no `iat` counts as before. */
function issuedAtOrBefore(claims: DeniableClaims, atMs: number): boolean {
  if (claims.iat === undefined) return true;
  // A fractional iat (allowed on signed URLs) is precise enough by itself.
  if (!Number.isInteger(claims.iat)) return claims.iat * 1000 <= atMs;
  const deniedSecond = Math.floor(atMs / 1000);
  if (claims.iat !== deniedSecond) return claims.iat < deniedSecond;
  const ms = claims.issued_at_ms;
  if (ms === undefined || Math.floor(ms / 1000) !== claims.iat) return true;
  return ms <= atMs;
}
