import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenError, verifySignedToken } from '../http/signed-urls.ts';
import { signToken } from '../test-support/jwt-sign.ts';
import { verifyWebsocketToken } from './jwt.ts';

// Both token kinds the panel signs go through one HS256 check (jose); each claim set is then read by
// its own rules. Tokens here are built as an attacker would: other algorithms, other keys, edits.
const KEY = 'node-token-'.padEnd(64, 'x');
const now = Math.floor(Date.now() / 1000);
const uuid = randomUUID();
const socketClaims = {
  scope: 'websocket',
  iat: now,
  nbf: now - 300,
  exp: now + 600,
  server_uuid: uuid,
  permissions: ['*'],
};
const urlClaims = {
  scope: 'file-download',
  iat: now,
  nbf: now - 300,
  exp: now + 900,
  server_uuid: uuid,
  unique_id: 'u1',
  file_path: 'a',
};

/** The same token with its payload replaced (the signature no longer matches it). */
function withPayload(token: string, claims: Record<string, unknown>): string {
  const [header, , signature] = token.split('.');
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

describe('websocket token', () => {
  it('a token the panel would sign is accepted', async () => {
    expect(await verifyWebsocketToken(await signToken(KEY, socketClaims), KEY)).toMatchObject(socketClaims);
  });

  it.each([
    ['alg none', () => signToken(KEY, socketClaims, { alg: 'none' }), 'jwt: unsupported algorithm'],
    ['HS512', () => signToken(KEY, socketClaims, { alg: 'HS512' }), 'jwt: unsupported algorithm'],
    ['a wrong key', () => signToken('another-node-token', socketClaims), 'jwt: HMAC verification failed'],
    [
      'a tampered payload',
      async () =>
        withPayload(await signToken(KEY, socketClaims), { ...socketClaims, permissions: ['admin.*'] }),
      'jwt: HMAC verification failed',
    ],
    [
      'a missing signature',
      async () => `${(await signToken(KEY, socketClaims)).split('.').slice(0, 2).join('.')}.`,
      'jwt: HMAC verification failed',
    ],
    [
      'no server_uuid',
      () => signToken(KEY, { ...socketClaims, server_uuid: undefined }),
      'jwt: invalid claims',
    ],
    ['not a JWT', async () => 'a.b', 'jwt: malformed token'],
    [
      'no scope',
      () => signToken(KEY, { ...socketClaims, scope: undefined }),
      'jwt: token scope is not websocket',
    ],
    [
      'a download scope',
      () => signToken(KEY, { ...socketClaims, scope: 'file-download' }),
      'jwt: token scope is not websocket',
    ],
  ])('is refused with %s', async (_what, token, message) => {
    await expect(verifyWebsocketToken(await token(), KEY)).rejects.toThrow(message);
  });
});

describe('signed URL token', () => {
  it('a token the panel would sign is accepted', async () => {
    expect(await verifySignedToken(await signToken(KEY, urlClaims), KEY, 'file-download')).toMatchObject(
      urlClaims,
    );
  });

  it.each([
    ['alg none', () => signToken(KEY, urlClaims, { alg: 'none' })],
    ['HS512', () => signToken(KEY, urlClaims, { alg: 'HS512' })],
    ['a wrong key', () => signToken('another-node-token', urlClaims)],
    ['an expired exp', () => signToken(KEY, { ...urlClaims, exp: now - 1 })],
    ['no exp', () => signToken(KEY, { ...urlClaims, exp: undefined })],
    ['an nbf over a minute ahead', () => signToken(KEY, { ...urlClaims, nbf: now + 120 })],
    [
      'a tampered payload',
      async () =>
        withPayload(await signToken(KEY, urlClaims), { ...urlClaims, file_path: '../../etc/shadow' }),
    ],
    ['no scope', () => signToken(KEY, { ...urlClaims, scope: undefined })],
    ['the upload scope', () => signToken(KEY, { ...urlClaims, scope: 'file-upload' })],
    ['the websocket scope', () => signToken(KEY, { ...urlClaims, scope: 'websocket' })],
  ])('is refused with %s', async (_what, token) => {
    await expect(verifySignedToken(await token(), KEY, 'file-download', now)).rejects.toBeInstanceOf(
      TokenError,
    );
  });

  it('allows a minute of clock skew on nbf, none on exp', async () => {
    await expect(
      verifySignedToken(await signToken(KEY, { ...urlClaims, nbf: now + 30 }), KEY, 'file-download', now),
    ).resolves.toBeTruthy();
    await expect(
      verifySignedToken(await signToken(KEY, { ...urlClaims, exp: now }), KEY, 'file-download', now),
    ).rejects.toThrow('expired');
  });
});
