import { createHmac } from 'node:crypto';

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** An HS256 JSON Web Token, as the daemon verifies it with the node's token. */
export function signHs256(
  claims: Record<string, unknown>,
  key: string,
  header: Record<string, unknown> = {},
): string {
  const head = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256', ...header }));
  const body = b64url(JSON.stringify(claims));
  const signature = createHmac('sha256', key).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}
