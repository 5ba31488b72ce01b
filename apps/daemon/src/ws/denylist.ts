/**
 * Token revocation (Wings protocol §3.7), global to the node and in memory only:
 * - tokens issued before this daemon started are refused (clients fetch fresh ones after a restart);
 *   a token issued in the boot second itself is accepted, so a client that connects right after a
 *   restart is not bounced;
 * - `POST /api/servers/:server/ws/deny` records jti → time; tokens with that jti issued at or before
 *   that moment (second resolution, so the same second counts) are refused; newer ones work.
 */
export class Denylist {
  private readonly denied = new Map<string, number>();
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

  /**
   * Signed URLs (download, upload): only a denial counts — their jti denied at or after their issue.
   * Wings does not check these at all; the panel denies a user's jti when they lose the server, and
   * a 15-minute URL handed out before must stop working too.
   */
  isRevoked(claims: { iat?: number; jti?: string }): boolean {
    const at = claims.jti === undefined ? undefined : this.denied.get(claims.jti);
    if (at === undefined) return false;
    return claims.iat === undefined || claims.iat <= Math.floor(at / 1000);
  }

  isDenied(claims: { iat?: number; jti?: string }): boolean {
    if (claims.iat === undefined) return true;
    if (claims.iat < this.bootSecond) return true;
    const at = claims.jti === undefined ? undefined : this.denied.get(claims.jti);
    return at !== undefined && claims.iat <= Math.floor(at / 1000);
  }
}
