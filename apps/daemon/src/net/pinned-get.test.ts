import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from './address-policy.ts';
import { pinnedGet, type Resolver } from './pinned-get.ts';

/**
 * The address check and the connection use the same resolution: a name is resolved once per hop
 * by the daemon, every address checked, and the connection made to the checked address (DNS
 * rebinding cannot swap it in between). A resolver hook stands in for DNS.
 */
describe('pinnedGet', () => {
  let server: http.Server;
  let port: number;
  const seen: string[] = [];
  const policy = new AddressPolicy(['127.0.0.2/32']);

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.headers.host} ${req.socket.localAddress}`);
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  const get = (url: string, resolve: Resolver) =>
    pinnedGet(url, {
      policy,
      maxRedirects: 5,
      signal: new AbortController().signal,
      headersTimeoutMs: 10_000,
      resolve,
    });

  it('connects to the address it checked, with the name as Host header, resolving once', async () => {
    let calls = 0;
    // A rebinding resolver: allowed on the first answer, loopback on any later one.
    const rebinding: Resolver = async () => (calls++ === 0 ? ['127.0.0.2'] : ['127.0.0.1']);
    const { response } = await get(`http://files.example:${port}/a`, rebinding);
    response.resume();
    expect(response.statusCode).toBe(200);
    expect(calls).toBe(1);
    expect(seen).toContain(`files.example:${port} 127.0.0.2`);
  });

  it('refuses a name when any of its addresses is internal, naming it', async () => {
    await expect(get(`http://mixed.example:${port}/`, async () => ['127.0.0.2', '10.0.0.5'])).rejects.toThrow(
      'The address 10.0.0.5 (of mixed.example) is on a private network and cannot be downloaded from.',
    );
    await expect(get(`http://meta.example/`, async () => ['169.254.169.254'])).rejects.toThrow(
      /^The address 169\.254\.169\.254 \(of meta\.example\) is link-local/,
    );
    await expect(get(`http://mapped.example/`, async () => ['::ffff:10.1.2.3'])).rejects.toThrow(
      /^The address ::ffff:10\.1\.2\.3 \(of mapped\.example\) is on a private network/,
    );
  });

  it('says when a name does not resolve', async () => {
    await expect(
      get('http://nowhere.invalid/', async () => {
        throw new Error('ENOTFOUND');
      }),
    ).rejects.toThrow('The host nowhere.invalid could not be found.');
  });
});
