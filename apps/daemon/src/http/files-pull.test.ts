import { randomBytes } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, waitUntil, type Stack } from '../test-support/harness.ts';

/**
 * Remote pull (protocol §8.15) against real HTTP servers: one on 127.0.0.2, which the daemon's
 * configuration allows (`api.remote_download.allowed_networks`), and one on 127.0.0.1, which it does
 * not: the refusals must come before any connection, so the second one counts zero requests.
 */
const MIB = 1024 * 1024;
const BIG = randomBytes(2 * MIB);

interface Origin {
  server: http.Server;
  base: string;
  hits: string[];
  /** Ends the response held open by /slow/*. */
  release: Map<string, () => void>;
  /** /slow/* responses whose connection closed. */
  closed: Set<string>;
}

async function origin(host: string, routes: (o: Origin) => http.RequestListener): Promise<Origin> {
  const o = { hits: [] as string[], release: new Map(), closed: new Set() } as unknown as Origin;
  o.server = http.createServer((req, res) => {
    o.hits.push(`${req.headers.host} ${req.url}`);
    routes(o)(req, res);
  });
  await new Promise<void>((r) => o.server.listen(0, host, r));
  o.base = `http://${host}:${(o.server.address() as AddressInfo).port}`;
  return o;
}

describe('files/pull', () => {
  let stack: Stack;
  let uuid: string;
  let allowed: Origin;
  let loopback: Origin;
  const dir = () => path.join(stack.config.system.data, uuid);
  const pull = (body: Record<string, unknown>) => stack.api('POST', `/api/servers/${uuid}/files/pull`, body);
  const entries = async () => (await readdir(dir())).sort();

  beforeAll(async () => {
    loopback = await origin('127.0.0.1', () => (_req, res) => res.end('internal secret'));
    allowed = await origin('127.0.0.2', (o) => (req, res) => {
      const url = req.url ?? '/';
      if (url === '/file.txt') return res.end('hello pull');
      if (url === '/dir/plugin.jar?v=2') return res.end('jar bytes');
      if (url === '/named')
        return res
          .writeHead(200, { 'Content-Disposition': 'attachment; filename="from-header.txt"' })
          .end('named');
      if (url.startsWith('/hop/')) {
        const n = Number(url.slice(5));
        return res.writeHead(302, { Location: n > 0 ? `/hop/${n - 1}` : '/file.txt' }).end();
      }
      if (url === '/loop') return res.writeHead(302, { Location: '/loop' }).end();
      if (url === '/to-loopback') return res.writeHead(302, { Location: `${loopback.base}/secret` }).end();
      if (url === '/to-localhost')
        return res.writeHead(301, { Location: loopback.base.replace('127.0.0.1', 'localhost') + '/x' }).end();
      if (url === '/to-metadata')
        return res.writeHead(307, { Location: 'http://169.254.169.254/latest/' }).end();
      if (url === '/to-file') return res.writeHead(302, { Location: 'file:///etc/passwd' }).end();
      if (url === '/missing') return res.writeHead(404).end('no');
      if (url === '/big-declared') return res.writeHead(200, { 'Content-Length': BIG.length }).end(BIG);
      if (url === '/big-chunked') {
        // No length announced: the size is only learned while the bytes arrive.
        res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
        return res.end(BIG);
      }
      if (url.startsWith('/slow/')) {
        res.writeHead(200, { 'Content-Length': 20 });
        res.write('0123456789');
        o.release.set(url, () => res.end('abcdefghij'));
        res.on('close', () => o.closed.add(url));
        return;
      }
      res.writeHead(500).end();
    });
    stack = await startStack({
      config: {
        api: { host: '127.0.0.1', port: 0, remote_download: { allowed_networks: ['127.0.0.2/32'] } },
      },
    });
    uuid = await stack.createInstalled(undefined, {
      settings: {
        build: {
          memory_limit: 256,
          swap: 0,
          io_weight: 500,
          cpu_limit: 0,
          threads: null,
          disk_space: 1,
          oom_disabled: false,
        },
      },
    });
  }, 60_000);

  afterAll(async () => {
    for (const r of allowed?.release.values() ?? []) r();
    await stack?.dispose();
    allowed?.server.close();
    loopback?.server.close();
  });

  it('downloads in the foreground and answers the file object', async () => {
    const res = await pull({ url: `${allowed.base}/file.txt`, root: '/', foreground: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'file.txt', size: 10, file: true, directory: false });
    expect(await readFile(path.join(dir(), 'file.txt'), 'utf8')).toBe('hello pull');
    expect(allowed.hits).toContain(`${allowed.base.slice(7)} /file.txt`);
  });

  it('names the file from file_name, else Content-Disposition (use_header), else the URL path; creates the directory', async () => {
    expect(
      (await pull({ url: `${allowed.base}/file.txt`, root: '/a', file_name: 'given.txt', foreground: true }))
        .status,
    ).toBe(200);
    expect(await readFile(path.join(dir(), 'a/given.txt'), 'utf8')).toBe('hello pull');
    expect(
      (await pull({ url: `${allowed.base}/named`, directory: '/a', use_header: true, foreground: true }))
        .status,
    ).toBe(200);
    expect(await readFile(path.join(dir(), 'a/from-header.txt'), 'utf8')).toBe('named');
    expect(
      (await pull({ url: `${allowed.base}/dir/plugin.jar?v=2`, root: 'a/b', foreground: true })).status,
    ).toBe(200);
    expect(await readFile(path.join(dir(), 'a/b/plugin.jar'), 'utf8')).toBe('jar bytes');
  });

  it('refuses file names that are not plain names', async () => {
    for (const file_name of ['../escape.txt', 'x/y.txt', '..', '.']) {
      const res = await pull({ url: `${allowed.base}/file.txt`, file_name, foreground: true });
      expect(res.status, file_name).toBe(400);
      expect(res.body.error).toMatch(/cannot be used as a file name/);
    }
  });

  it('downloads in the background: 202 with an identifier, listed until done', async () => {
    const res = await pull({ url: `${allowed.base}/slow/bg.txt` });
    expect(res.status).toBe(202);
    const id = res.body.identifier as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await waitUntil(async () => {
      const list = await stack.api('GET', `/api/servers/${uuid}/files/pull`);
      return list.body.downloads.some(
        (d: { Identifier: string; Progress: number }) => d.Identifier === id && d.Progress === 0.5,
      );
    });
    // Not visible under its name while it is incomplete.
    expect(await entries()).not.toContain('bg.txt');
    allowed.release.get('/slow/bg.txt')!();
    await waitUntil(
      async () => (await stack.api('GET', `/api/servers/${uuid}/files/pull`)).body.downloads.length === 0,
    );
    expect(await readFile(path.join(dir(), 'bg.txt'), 'utf8')).toBe('0123456789abcdefghij');
  });

  it('cancels a download: nothing is left behind', async () => {
    const res = await pull({ url: `${allowed.base}/slow/cancel.txt` });
    const id = res.body.identifier as string;
    await waitUntil(
      async () => (await stack.api('GET', `/api/servers/${uuid}/files/pull`)).body.downloads.length === 1,
    );
    expect((await stack.api('DELETE', `/api/servers/${uuid}/files/pull/${id}`)).status).toBe(204);
    await waitUntil(
      async () => (await stack.api('GET', `/api/servers/${uuid}/files/pull`)).body.downloads.length === 0,
    );
    await waitUntil(async () => !(await entries()).some((e) => e.startsWith('.talon-upload-')));
    expect(await entries()).not.toContain('cancel.txt');
    // An unknown identifier is fine too.
    expect((await stack.api('DELETE', `/api/servers/${uuid}/files/pull/${id}`)).status).toBe(204);
  });

  it('stops the downloads of a server that is deleted', async () => {
    const other = await stack.createInstalled();
    const res = await stack.api('POST', `/api/servers/${other}/files/pull`, {
      url: `${allowed.base}/slow/deleted.txt`,
    });
    expect(res.status).toBe(202);
    await waitUntil(() => allowed.release.has('/slow/deleted.txt'));
    expect((await stack.api('DELETE', `/api/servers/${other}`)).status).toBe(204);
    await waitUntil(() => allowed.closed.has('/slow/deleted.txt'));
  });

  it('runs at most 3 downloads per server at once', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3])
      ids.push((await pull({ url: `${allowed.base}/slow/limit${n}.txt` })).body.identifier);
    const fourth = await pull({ url: `${allowed.base}/file.txt`, file_name: 'fourth.txt' });
    expect(fourth.status).toBe(400);
    expect(fourth.body.error).toBe(
      'This server has reached its limit of 3 simultaneous remote file downloads at once. Please wait for one to complete before trying again.',
    );
    for (const id of ids) await stack.api('DELETE', `/api/servers/${uuid}/files/pull/${id}`);
    await waitUntil(
      async () => (await stack.api('GET', `/api/servers/${uuid}/files/pull`)).body.downloads.length === 0,
    );
  });

  it('follows a chain of redirects, each checked, up to 5', async () => {
    const ok = await pull({ url: `${allowed.base}/hop/4`, file_name: 'hops.txt', foreground: true });
    expect(ok.status).toBe(200);
    expect(await readFile(path.join(dir(), 'hops.txt'), 'utf8')).toBe('hello pull');
    const loop = await pull({ url: `${allowed.base}/loop`, file_name: 'loop.txt', foreground: true });
    expect(loop.status).toBe(400);
    expect(loop.body.error).toBe('The address redirected more than 5 times.');
  });

  it('refuses loopback, private, link-local and IPv4-mapped addresses before connecting', async () => {
    const port = new URL(loopback.base).port;
    const cases: [string, string][] = [
      [
        `http://127.0.0.1:${port}/`,
        'The address 127.0.0.1 is a loopback address and cannot be downloaded from.',
      ],
      [`http://[::1]:${port}/`, 'The address ::1 is a loopback address and cannot be downloaded from.'],
      [
        `http://[::ffff:127.0.0.1]:${port}/`,
        'The address ::ffff:7f00:1 is a loopback address and cannot be downloaded from.',
      ],
      ['http://10.0.0.5/x', 'The address 10.0.0.5 is on a private network and cannot be downloaded from.'],
      [
        'http://192.168.0.1/x',
        'The address 192.168.0.1 is on a private network and cannot be downloaded from.',
      ],
      [
        'http://169.254.169.254/latest/meta-data/',
        'The address 169.254.169.254 is link-local (where cloud metadata services answer) and cannot be downloaded from.',
      ],
      [`http://0.0.0.0:${port}/`, 'The address 0.0.0.0 is unspecified and cannot be downloaded from.'],
    ];
    for (const [url, error] of cases) {
      const res = await pull({ url, file_name: 'nope.txt', foreground: true });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe(error);
    }
    // A host name is resolved by the daemon and every address checked.
    const named = await pull({ url: `http://localhost:${port}/`, file_name: 'nope.txt', foreground: true });
    expect(named.status).toBe(400);
    expect(named.body.error).toMatch(
      /^The address (127\.0\.0\.1|::1) \(of localhost\) is a loopback address/,
    );
    expect(loopback.hits).toEqual([]);
    expect(await entries()).not.toContain('nope.txt');
  });

  it('refuses a redirect to a forbidden address or scheme, at each hop', async () => {
    for (const [p, error] of [
      ['/to-loopback', /^The address 127\.0\.0\.1 is a loopback address/],
      ['/to-localhost', /^The address (127\.0\.0\.1|::1) \(of localhost\) is a loopback address/],
      ['/to-metadata', /^The address 169\.254\.169\.254 is link-local/],
      [
        '/to-file',
        /^Only http:\/\/ and https:\/\/ addresses can be downloaded from, not file:\/\/ addresses\.$/,
      ],
    ] as const) {
      const res = await pull({ url: `${allowed.base}${p}`, file_name: 'nope.txt', foreground: true });
      expect(res.status, p).toBe(400);
      expect(res.body.error, p).toMatch(error);
    }
    expect(loopback.hits).toEqual([]);
  });

  it('refuses other schemes and unparsable URLs', async () => {
    for (const [url, error] of [
      [
        'file:///etc/passwd',
        'Only http:// and https:// addresses can be downloaded from, not file:// addresses.',
      ],
      [
        'ftp://example.com/a',
        'Only http:// and https:// addresses can be downloaded from, not ftp:// addresses.',
      ],
      [
        'gopher://127.0.0.2/',
        'Only http:// and https:// addresses can be downloaded from, not gopher:// addresses.',
      ],
      ['not a url', 'An error occurred while parsing that URL: "not a url" is not a URL.'],
    ]) {
      const res = await pull({ url, file_name: 'nope.txt' });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe(error);
    }
    const missing = await pull({ root: '/' });
    expect(missing.status).toBe(400);
  });

  it('says what the remote answered when it is not the file', async () => {
    const res = await pull({ url: `${allowed.base}/missing`, foreground: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`${allowed.base.slice(7)} answered 404 Not Found instead of the file.`);
  });

  it('refuses a file larger than the free disk space, announced or not, leaving nothing behind', async () => {
    const declared = await pull({ url: `${allowed.base}/big-declared`, foreground: true });
    expect(declared.status).toBe(400);
    expect(declared.body.error).toBe(
      `The file is ${BIG.length} bytes, more than the disk space this server has left.`,
    );
    const streamed = await pull({ url: `${allowed.base}/big-chunked`, foreground: true });
    expect(streamed.status).toBe(400);
    expect(streamed.body.error).toBe(
      'The download was stopped: the file is larger than the disk space this server has left.',
    );
    const names = await entries();
    expect(names).not.toContain('big-declared');
    expect(names).not.toContain('big-chunked');
    expect(names.filter((e) => e.startsWith('.talon-upload-'))).toEqual([]);
  });
});

describe('files/pull when the operator disabled it', () => {
  let stack: Stack;
  let uuid: string;
  beforeAll(async () => {
    stack = await startStack({
      config: { api: { host: '127.0.0.1', port: 0, disable_remote_download: true } },
    });
    uuid = await stack.createInstalled();
  }, 60_000);
  afterAll(async () => {
    await stack?.dispose();
  });

  it('answers every pull route with the reason', async () => {
    const disabled = { error: 'This functionality is not currently enabled on this instance.' };
    const started = await stack.api('POST', `/api/servers/${uuid}/files/pull`, {
      url: 'https://example.com/a',
    });
    expect(started).toMatchObject({ status: 400, body: disabled });
    expect(await stack.api('GET', `/api/servers/${uuid}/files/pull`)).toMatchObject({
      status: 400,
      body: disabled,
    });
  });
});
