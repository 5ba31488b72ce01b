import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../db/types.ts';
import { TestClient } from '../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

/** Send `head` as written on a raw socket and read everything the server answers until it closes. */
function rawRequest(url: string, head: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(head));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
  });
}

/**
 * Requests built to cost the panel work before it refuses them: JSON nested thousands of levels
 * deep (input normalisation and validation walk it recursively), headers far over any browser's,
 * bodies over the limit. Each gets its 4xx in Pterodactyl's error form before a handler runs.
 */
describe('request limits (panel)', () => {
  let panel: TestPanel;
  let user: User;
  let client: TestClient;

  beforeAll(async () => {
    panel = await startTestPanel();
    user = await panel.createUser();
    client = await panel.signedIn(user);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const keys = async (): Promise<number> =>
    ((await client.request('GET', '/api/client/account/api-keys')).body as { data: unknown[] }).data.length;

  it('JSON nested 10 000 levels deep → 400 before any handler runs (no key is created)', async () => {
    const deep = `{"description":"deep","allowed_ips":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await client.request('POST', '/api/client/account/api-keys', undefined, deep);
    expect([res.status, res.body]).toEqual([
      400,
      {
        errors: [
          {
            code: 'BadRequestHttpException',
            status: '400',
            detail: 'The JSON in the request body is nested more than 64 levels deep.',
          },
        ],
      },
    ]);
    // A million levels: the same answer, no stack overflow.
    const deeper = await client.request(
      'POST',
      '/api/client/account/api-keys',
      undefined,
      '['.repeat(1_000_000),
    );
    expect(deeper.status).toBe(400);
    expect(await keys()).toBe(0);
    // Within the limit (brackets in strings do not count) the route works as before.
    const ok = await client.request('POST', '/api/client/account/api-keys', { description: '[[[[' });
    expect(ok.status).toBe(200);
    expect(await keys()).toBe(1);
  });

  it('a 64 KiB cookie → 431 in the Pterodactyl error form', async () => {
    const res = await rawRequest(
      panel.url,
      `GET /api/client HTTP/1.1\r\nHost: x\r\nCookie: c=${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({
      errors: [
        {
          code: 'RequestHeaderFieldsTooLargeHttpException',
          status: '431',
          detail: 'The request headers are too large.',
        },
      ],
    });
  });

  it('a body over 10 MiB → 413 in the Pterodactyl error form', async () => {
    const big = JSON.stringify({ description: 'a'.repeat(11 * 1024 * 1024) });
    const res = await client.request('POST', '/api/client/account/api-keys', undefined, big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ errors: [{ code: 'PayloadTooLargeHttpException', status: '413' }] });
  });
});
