import { SignJWT } from 'jose';
import {
  WINGS_JWT_ALGORITHM,
  type SignedUrlClaimsFor,
  type TokenScope,
  type WebsocketClaims,
} from '@talon/shared';

/** Claims this module writes itself, from one clock reading and the token's purpose. */
type Written = 'scope' | 'jti' | 'iat' | 'nbf' | 'exp' | 'issued_at_ms';

/** What a call site adds for a token of `scope`: the subject of the token (server, user, file…). */
export type DaemonTokenClaims<S extends TokenScope> = Omit<
  S extends 'websocket' ? WebsocketClaims : SignedUrlClaimsFor<Exclude<S, 'websocket'>>,
  Written
>;

export interface DaemonTokenPurpose<S extends TokenScope> {
  /** The one daemon route family the token opens (protocol §9.2b): required, so none is forgotten. */
  scope: S;
  /** Lifetime from now. */
  seconds: number;
  /** The node's plain token (the HMAC key). */
  key: string;
  /** Written in the header and the claims (the panel's per user and server id, for `ws/deny`). */
  jti?: string;
}

/** Daemon clocks may run a little behind the panel's (reference §9.4: the panel's own `nbf`). */
const CLOCK_SKEW_SECONDS = 300;

/**
 * An HS256 JSON Web Token for a daemon (websocket credentials, signed download/upload URLs). The
 * purpose comes first and is always written: a daemon refuses a token on any route but its scope's,
 * so no call site can sign a token that works everywhere. Times come from one clock reading: `iat`
 * in seconds as Wings parses it, and `issued_at_ms` so a daemon can order the token against a
 * denial in the same second. The algorithm cannot be changed.
 */
export function signDaemonToken<S extends TokenScope>(
  purpose: DaemonTokenPurpose<S>,
  claims: DaemonTokenClaims<S>,
): Promise<string> {
  const nowMs = Date.now();
  const now = Math.floor(nowMs / 1000);
  const { scope, seconds, key, jti } = purpose;
  return new SignJWT({
    ...claims,
    scope,
    ...(jti === undefined ? {} : { jti }),
    iat: now,
    nbf: now - CLOCK_SKEW_SECONDS,
    exp: now + seconds,
    issued_at_ms: nowMs,
  })
    .setProtectedHeader({ typ: 'JWT', ...(jti === undefined ? {} : { jti }), alg: WINGS_JWT_ALGORITHM })
    .sign(new TextEncoder().encode(key));
}
