import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
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

  it('over https sends the host name as TLS server name and checks the certificate against it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'talon-pull-tls-'));
    const names: string[] = [];
    let secure: https.Server | undefined;
    try {
      const key = path.join(dir, 'key.pem');
      const cert = path.join(dir, 'cert.pem');
      await promisify(execFile)('openssl', [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=secure.example',
        '-keyout',
        key,
        '-out',
        cert,
      ]);
      const context = tls.createSecureContext({ key: await readFile(key), cert: await readFile(cert) });
      secure = https.createServer(
        {
          SNICallback: (name, cb) => {
            names.push(name);
            cb(null, context);
          },
        },
        (_req, res) => res.end('never'),
      );
      await new Promise<void>((r) => secure!.listen(0, '127.0.0.2', r));
      const tlsPort = (secure.address() as AddressInfo).port;
      // A self-signed certificate is not trusted: the download is refused, after the handshake
      // named the host (not the address it connected to).
      await expect(get(`https://secure.example:${tlsPort}/`, async () => ['127.0.0.2'])).rejects.toThrow(
        `Could not download from secure.example:${tlsPort}: DEPTH_ZERO_SELF_SIGNED_CERT.`,
      );
      expect(names).toEqual(['secure.example']);
    } finally {
      secure?.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
