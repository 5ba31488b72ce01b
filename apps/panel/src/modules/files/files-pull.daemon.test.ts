import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../../db/types.ts';
import { expectError, firstError, type TestClient } from '../../test-support/client.ts';
import { startServerWorld, type ServerWorld, waitUntil } from '../../test-support/daemon-servers.ts';
import { addSubuser, subuserClient } from '../../test-support/fixtures.ts';
import type { TestPanel } from '../../test-support/panel.ts';

// POST /files/pull (reference §3.3) through the panel to a real daemon, which downloads from a local
// HTTP server on 127.0.0.2: the one address its configuration allows besides the public internet.
let world: ServerWorld;
let panel: TestPanel;
let ownerClient: TestClient;
let server: Server;
let root: string;
let origin: http.Server;
let originBase: string;
const release = new Map<string, () => void>();

const base = () => `/api/client/servers/${server.uuid_short}/files`;
const events = () => world.events('server:file.pull');

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    if (req.url === '/mod.jar') return res.end('mod bytes');
    if (req.url?.startsWith('/slow/')) {
      res.writeHead(200, { 'Content-Length': 8 });
      res.write('1234');
      release.set(req.url, () => res.end('5678'));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.2', r));
  originBase = `http://127.0.0.2:${(origin.address() as AddressInfo).port}`;
  world = await startServerWorld({ daemonApi: { remote_download: { allowed_networks: ['127.0.0.2/32'] } } });
  ({ panel, server, root, ownerClient } = world);
}, 120_000);

afterAll(async () => {
  for (const r of release.values()) r();
  await world?.close();
  origin?.close();
});

describe('POST /files/pull', () => {
  it('downloads in the foreground, answers 204 and logs server:file.pull', async () => {
    const res = await ownerClient.post(`${base()}/pull`, {
      url: `${originBase}/mod.jar`,
      directory: '/plugins',
      filename: 'renamed.jar',
      use_header: false,
      foreground: true,
    });
    expect(res.status, res.text).toBe(204);
    expect(readFileSync(path.join(root, 'plugins/renamed.jar'), 'utf8')).toBe('mod bytes');
    expect(await events()).toContainEqual({ directory: '/plugins', url: `${originBase}/mod.jar` });
  });

  it('downloads in the background; GET /files/pull shows its progress until it is done', async () => {
    const res = await ownerClient.post(`${base()}/pull`, { url: `${originBase}/slow/bg.bin` });
    expect(res.status, res.text).toBe(204);
    let listed: any;
    await waitUntil(
      'the download listed at half',
      async () => (await ownerClient.get(`${base()}/pull`)).body,
      (body) => {
        listed = body;
        return body?.data?.[0]?.attributes?.progress === 0.5;
      },
      10_000,
    );
    expect(listed.object).toBe('list');
    expect(listed.data[0]).toMatchObject({
      object: 'remote_download',
      attributes: {
        url: `${originBase}/slow/bg.bin`,
        directory: '/',
        file_name: 'bg.bin',
        bytes: 4,
        total_bytes: 8,
      },
    });
    release.get('/slow/bg.bin')!();
    await waitUntil(
      'the file',
      async () => existsSync(path.join(root, 'bg.bin')),
      (x) => x,
      10_000,
    );
    expect(readFileSync(path.join(root, 'bg.bin'), 'utf8')).toBe('12345678');
    expect((await ownerClient.get(`${base()}/pull`)).body.data).toEqual([]);
  });

  it("passes on the daemon's refusal of an internal address, in words", async () => {
    const res = await ownerClient.post(`${base()}/pull`, { url: 'http://127.0.0.1:9/x', foreground: true });
    expect(res.status, res.text).toBe(400);
    expect(firstError(res).detail).toMatch(
      /^An error occurred on the remote host: The address 127\.0\.0\.1 is a loopback address and cannot be downloaded from\. \(request id: /,
    );
    const priv = await ownerClient.post(`${base()}/pull`, { url: 'http://10.0.0.5/x' });
    expect(firstError(priv).detail).toMatch(/The address 10\.0\.0\.5 is on a private network/);
  });

  it('validates the body (422, reference format)', async () => {
    const cases: [unknown, string, string, string][] = [
      [{}, 'url', 'required', 'The url field is required.'],
      [{ url: 'not a url' }, 'url', 'url', 'The url format is invalid.'],
      [{ url: 'ftp://example.com/a' }, 'url', 'url', 'The url format is invalid.'],
      [
        { url: `${originBase}/mod.jar`, foreground: 'yes' },
        'foreground',
        'boolean',
        'The foreground field must be true or false.',
      ],
      [
        { url: `${originBase}/mod.jar`, filename: ['x'] },
        'filename',
        'string',
        'The filename must be a string.',
      ],
    ];
    for (const [body, field, rule, detail] of cases) {
      const res = await ownerClient.post(`${base()}/pull`, body);
      expect(res.status, res.text).toBe(422);
      expect(firstError(res)).toEqual({
        code: 'ValidationException',
        status: '422',
        detail,
        meta: { source_field: field, rule },
      });
    }
  });

  it('needs file.create (403) and a relation to the server (404)', async () => {
    const { client: reader } = await subuserClient(panel, server, ['file.read', 'file.read-content']);
    const denied = await reader.post(`${base()}/pull`, { url: `${originBase}/mod.jar`, filename: 'no.jar' });
    expect(denied.status).toBe(403);
    expect((await reader.get(`${base()}/pull`)).status).toBe(403);
    const stranger = await panel.signedIn(await panel.createUser());
    expect(
      (await stranger.post(`${base()}/pull`, { url: `${originBase}/mod.jar`, filename: 'no.jar' })).status,
    ).toBe(404);
    expect(existsSync(path.join(root, 'no.jar'))).toBe(false);
  });

  it('keeps a folder-scoped subuser inside their folders', async () => {
    const scoped = await panel.createUser();
    await addSubuser(panel.ctx, server, scoped, ['file.create'], { filePaths: ['/mods'] });
    const client = await panel.signedIn(scoped);
    for (const directory of ['/', '/config', '/mods/../config', null]) {
      const res = await client.post(`${base()}/pull`, {
        url: `${originBase}/mod.jar`,
        directory,
        foreground: true,
      });
      expectError(
        res,
        403,
        'AccessDeniedHttpException',
        'Your access to the files of this server is limited to /mods.',
      );
    }
    expect(existsSync(path.join(root, 'config/mod.jar'))).toBe(false);
    const inside = await client.post(`${base()}/pull`, {
      url: `${originBase}/mod.jar`,
      directory: '/mods/extra',
      foreground: true,
    });
    expect(inside.status, inside.text).toBe(204);
    expect(readFileSync(path.join(root, 'mods/extra/mod.jar'), 'utf8')).toBe('mod bytes');
  });

  it('lets a subuser with file.create pull, 10 times in 5 minutes, then answers 429', async () => {
    const { client } = await subuserClient(panel, server, ['file.create']);
    const ok = await client.post(`${base()}/pull`, {
      url: `${originBase}/mod.jar`,
      filename: 'sub.jar',
      foreground: true,
    });
    expect(ok.status, ok.text).toBe(204);
    expect(existsSync(path.join(root, 'sub.jar'))).toBe(true);
    // Refused requests count too (the limit is checked before the body, as the original's).
    for (let i = 0; i < 9; i++)
      expect((await client.post(`${base()}/pull`, { url: 'bad' })).status).toBe(422);
    const limited = await client.post(`${base()}/pull`, { url: `${originBase}/mod.jar` });
    expectError(limited, 429, 'ThrottleRequestsException', 'Too Many Attempts.');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user's bucket is their own.
    expect((await ownerClient.post(`${base()}/pull`, { url: 'bad' })).status).toBe(422);
  });
});
