import { compactVerify, errors } from 'jose';
import { JWT_ERRORS, WINGS_JWT_ALGORITHM, websocketClaimsSchema, type WebsocketClaims } from '@talon/shared';

export class JwtError extends Error {}

/**
 * The payload of a JWT signed with the node token, once `jose` has checked the signature. Only
 * HS256 is accepted: a token whose header names another algorithm (`none`, HS512, RS256…) is refused
 * rather than reinterpreted. Claims are not interpreted here: each use decides which it needs.
 */
export async function verifyHs256Payload(token: string, secret: string): Promise<unknown> {
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(token.trim(), new TextEncoder().encode(secret), {
      algorithms: [WINGS_JWT_ALGORITHM],
    }));
  } catch (err) {
    if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
      throw new JwtError('jwt: unsupported algorithm');
    }
    if (err instanceof errors.JWSSignatureVerificationFailed) {
      throw new JwtError('jwt: HMAC verification failed');
    }
    throw new JwtError('jwt: malformed token');
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload)) as unknown;
  } catch {
    throw new JwtError('jwt: malformed token');
  }
}

/**
 * Verify a websocket JWT signed with the node token and parse its claims. Only the signature, the
 * `websocket` scope and the claim shapes are checked here; time, audience, denylist and permissions are checked on every use
 * (the token can expire while the socket is open).
 */
export async function verifyWebsocketToken(token: string, secret: string): Promise<WebsocketClaims> {
  const payload = await verifyHs256Payload(token, secret);
  // One purpose per token (GHSA-8r6w-3qq5-4p4r): said apart from other claim problems, as it is
  // the mistake a panel without `scope` makes.
  if ((payload as { scope?: unknown } | null)?.scope !== 'websocket')
    throw new JwtError(JWT_ERRORS.wrongScope);
  const claims = websocketClaimsSchema.safeParse(payload);
  if (!claims.success) throw new JwtError('jwt: invalid claims');
  return claims.data;
}
