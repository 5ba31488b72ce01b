import { createHmac, timingSafeEqual } from 'node:crypto';
import { websocketClaimsSchema, type WebsocketClaims } from '@talon/shared';

export class JwtError extends Error {}

function b64urlDecode(part: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) throw new JwtError('jwt: malformed token');
  return Buffer.from(part, 'base64url');
}

/**
 * Verify an HS256 JWT signed with the node token and parse the websocket claims. Only the signature
 * and the claim shapes are checked here; time, audience, denylist and permissions are checked on
 * every use (the token can expire while the socket is open). The header's `alg` must say HS256:
 * a token claiming another algorithm (or `none`) is refused rather than reinterpreted.
 */
export function verifyWebsocketToken(token: string, secret: string): WebsocketClaims {
  const parts = token.trim().split('.');
  if (parts.length !== 3) throw new JwtError('jwt: malformed token');
  const [h, p, sig] = parts as [string, string, string];
  let header: { alg?: unknown };
  try {
    header = JSON.parse(b64urlDecode(h).toString('utf8')) as { alg?: unknown };
  } catch (err) {
    throw err instanceof JwtError ? err : new JwtError('jwt: malformed token');
  }
  if (header.alg !== 'HS256') throw new JwtError('jwt: unsupported algorithm');
  const expected = createHmac('sha256', secret).update(`${h}.${p}`).digest();
  const given = b64urlDecode(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new JwtError('jwt: HMAC verification failed');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(b64urlDecode(p).toString('utf8'));
  } catch {
    throw new JwtError('jwt: malformed token');
  }
  const claims = websocketClaimsSchema.safeParse(payload);
  if (!claims.success) throw new JwtError('jwt: invalid claims');
  return claims.data;
}
