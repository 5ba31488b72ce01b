import { SignJWT } from 'jose';
import { WINGS_JWT_ALGORITHM, type SignedUrlClaims, type WebsocketClaims } from '@talon/shared';

/**
 * An HS256 JSON Web Token signed with a node's plain token, as the daemon verifies it (websocket
 * credentials and signed download/upload URLs). `header` adds fields such as `jti`; the algorithm
 * cannot be changed.
 */
export function signHs256(
  claims: WebsocketClaims | SignedUrlClaims,
  key: string,
  header: { jti?: string } = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ typ: 'JWT', ...header, alg: WINGS_JWT_ALGORITHM })
    .sign(new TextEncoder().encode(key));
}
