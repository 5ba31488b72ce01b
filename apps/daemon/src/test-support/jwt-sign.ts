import { createHmac } from 'node:crypto';

/** Sign a websocket JWT the way the panel does (HS256, node token, integer times). Tests only. */
export function signToken(
  secret: string,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): string {
  const enc = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  const h = enc({ typ: 'JWT', alg: 'HS256', ...header });
  const p = enc(claims);
  const sig = createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url');
  return `${h}.${p}.${sig}`;
}
