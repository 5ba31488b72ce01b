import { SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';

/**
 * Sign a JWT the way the panel does (HS256 with the node token, integer times). Tests only: `header`
 * may name another algorithm (`none`, HS512…) to prove the daemon refuses it.
 */
export function signToken(
  secret: string,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const alg = typeof header.alg === 'string' ? header.alg : 'HS256';
  // jose signs undefined-valued claims as absent, as JSON.stringify would.
  const payload = claims as JWTPayload;
  if (alg === 'none') return Promise.resolve(new UnsecuredJWT(payload).encode());
  return new SignJWT(payload)
    .setProtectedHeader({ typ: 'JWT', ...header, alg })
    .sign(new TextEncoder().encode(secret));
}
