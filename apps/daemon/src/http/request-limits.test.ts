import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startStack, type Stack } from '../test-support/harness.ts';

const MIB = 1024 * 1024;

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
 * Requests built to cost the daemon work before it refuses them: JSON nested thousands of levels
 * deep, headers far over any real client's, bodies over the limit. Each gets a 4xx in Wings'
 * `{"error": ...}` form before a route handler runs.
 */
describe('request limits (daemon)', () => {
  let stack: Stack;
  let uuid: string;

  beforeAll(async () => {
    stack = await startStack();
    uuid = await stack.createInstalled();
  }, 60_000);
  afterAll(async () => {
    await stack?.dispose();
  });

  const post = (p: string, body: string): Promise<Response> =>
    fetch(stack.url + p, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body,
    });

  it('JSON nested 10 000 levels deep → 400 before the handler runs (the power action is not taken)', async () => {
    const deep = `{"action":"start","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await post(`/api/servers/${uuid}/power`, deep);
    expect([res.status, await res.json()]).toEqual([
      400,
      { error: 'The JSON in the request body is nested more than 64 levels deep.' },
    ]);
    expect(stack.daemon.manager.get(uuid)!.state).toBe('offline');
    // A million levels: refused the same way, no stack overflow.
    const deeper = await post(`/api/servers/${uuid}/power`, '['.repeat(1_000_000));
    expect(deeper.status).toBe(400);
    // Within the limit, brackets inside strings do not count.
    const ok = await post(
      `/api/servers/${uuid}/power`,
      JSON.stringify({ action: 'kill', n: '['.repeat(100) }),
    );
    expect(ok.status).toBe(202);
  });

  it('a 64 KiB cookie → 431 in the {"error"} form', async () => {
    const res = await rawRequest(
      stack.url,
      `GET /api/system HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nCookie: c=${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({ error: 'The request headers are too large.' });
  });

  it('a JSON body over the limit → 413 in the {"error"} form', async () => {
    const res = await post(
      `/api/servers/${uuid}/power`,
      JSON.stringify({ action: 'start', pad: 'a'.repeat(2 * MIB) }),
    );
    expect([res.status, await res.json()]).toEqual([
      413,
      { error: 'The request body is larger than the upload limit of this node.' },
    ]);
    expect(stack.daemon.manager.get(uuid)!.state).toBe('offline');
  });

  it('requests within the limits still work', async () => {
    const res = await stack.api('GET', `/api/servers/${uuid}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'offline' });
  });
});
