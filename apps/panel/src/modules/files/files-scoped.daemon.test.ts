import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { outsideScopeMessage } from '@talon/shared/files/scope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../../db/types.ts';
import { expectError, type Res, type TestClient } from '../../test-support/client.ts';
import { startServerWorld, type ServerWorld } from '../../test-support/daemon-servers.ts';
import { subuserClient } from '../../test-support/fixtures.ts';
import type { TestPanel } from '../../test-support/panel.ts';

// Folder-scoped file access (our extension) through the panel to a real daemon: a subuser limited
// to /plugins works inside it and is refused (403) everywhere else, whatever the route, `..` or
// pair of names; the owner and unlimited subusers are unaffected.
let world: ServerWorld;
let panel: TestPanel;
let ownerClient: TestClient;
let builderClient: TestClient;
let fullClient: TestClient;
let server: Server;
let root: string;
/** A file server on 127.0.0.2, the one address the daemon's remote downloads may reach here. */
let origin: http.Server;
let originBase: string;
let finishSlow = () => undefined as void;

const ALL_FILE = [
  'file.read',
  'file.read-content',
  'file.create',
  'file.update',
  'file.delete',
  'file.archive',
  'file.sftp',
];
const base = () => `/api/client/servers/${server.uuid_short}/files`;
const at = (p: string) => path.join(root, p);
const OUTSIDE = outsideScopeMessage(['/plugins']);
const refused = (res: Res) => expectError(res, 403, 'AccessDeniedHttpException', OUTSIDE);
const names = (res: Res) =>
  (res.body.data as { attributes: { name: string } }[]).map((d) => d.attributes.name).sort();

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    if (req.url !== '/slow.jar') return res.end('pulled bytes');
    // Held open until the test ends: a download that is still running.
    res.writeHead(200, { 'Content-Length': 8 });
    res.write('1234');
    finishSlow = () => res.end('5678');
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.2', r));
  originBase = `http://127.0.0.2:${(origin.address() as AddressInfo).port}`;
  world = await startServerWorld({ daemonApi: { remote_download: { allowed_networks: ['127.0.0.2/32'] } } });
  ({ panel, server, root, ownerClient } = world);
  builderClient = (await subuserClient(panel, server, ALL_FILE, { filePaths: ['/plugins'] })).client;
  fullClient = (await subuserClient(panel, server, ALL_FILE)).client;
  mkdirSync(at('plugins'), { recursive: true });
  mkdirSync(at('world'), { recursive: true });
  writeFileSync(at('server.properties'), 'rcon.password=secret\n');
  writeFileSync(at('world/level.dat'), 'level');
  writeFileSync(at('plugins/a.jar'), 'jar');
}, 120_000);

afterAll(async () => {
  await world?.close();
  finishSlow();
  origin?.close();
});

describe('reading', () => {
  it('lists only the allowed folder at the root and above it; everything inside as usual', async () => {
    const top = await builderClient.get(`${base()}/list?directory=/`);
    expect(top.status, top.text).toBe(200);
    expect(names(top)).toEqual(['plugins']);
    expect(names(await builderClient.get(`${base()}/list`))).toEqual(['plugins']);
    const inside = await builderClient.get(`${base()}/list?directory=/plugins`);
    expect(names(inside)).toContain('a.jar');
    refused(await builderClient.get(`${base()}/list?directory=/world`));
    refused(await builderClient.get(`${base()}/list?directory=/plugins/../world`));
  });

  it('reads inside; refuses server.properties, also through ..', async () => {
    const ok = await builderClient.get(`${base()}/contents?file=/plugins/a.jar`);
    expect([ok.status, ok.text]).toEqual([200, 'jar']);
    expect((await builderClient.get(`${base()}/contents?file=plugins/./a.jar`)).status).toBe(200);
    refused(await builderClient.get(`${base()}/contents?file=server.properties`));
    refused(await builderClient.get(`${base()}/contents?file=/plugins/../server.properties`));
    refused(await builderClient.get(`${base()}/contents?file=/plugins/../../../server.properties`));
    refused(await builderClient.get(`${base()}/contents?file=/plugins2`));
  });
});

describe('changing', () => {
  it('writes and creates folders inside only; nothing is written outside', async () => {
    expect((await builderClient.postRaw(`${base()}/write?file=/plugins/new.yml`, 'a: 1')).status).toBe(204);
    expect(readFileSync(at('plugins/new.yml'), 'utf8')).toBe('a: 1');
    refused(await builderClient.postRaw(`${base()}/write?file=/server.properties`, 'x'));
    refused(await builderClient.postRaw(`${base()}/write?file=/plugins/../eula.txt`, 'x'));
    expect(readFileSync(at('server.properties'), 'utf8')).toBe('rcon.password=secret\n');
    expect(existsSync(at('eula.txt'))).toBe(false);

    const made = await builderClient.post(`${base()}/create-folder`, { root: '/plugins', name: 'conf' });
    expect(made.status, made.text).toBe(204);
    refused(await builderClient.post(`${base()}/create-folder`, { root: '/', name: 'evil' }));
    refused(await builderClient.post(`${base()}/create-folder`, { root: '/plugins', name: '../evil' }));
    expect(existsSync(at('evil'))).toBe(false);
  });

  it('renames inside; refuses a rename out of the folder or into it from outside (source and destination)', async () => {
    writeFileSync(at('plugins/b.jar'), 'b');
    const ok = await builderClient.put(`${base()}/rename`, {
      root: '/plugins',
      files: [{ from: 'b.jar', to: 'conf/b.jar' }],
    });
    expect(ok.status, ok.text).toBe(204);
    refused(
      await builderClient.put(`${base()}/rename`, {
        root: '/plugins',
        files: [{ from: 'a.jar', to: '../a.jar' }],
      }),
    );
    refused(
      await builderClient.put(`${base()}/rename`, {
        root: '/',
        files: [{ from: 'plugins/a.jar', to: 'a.jar' }],
      }),
    );
    refused(
      await builderClient.put(`${base()}/rename`, {
        root: '/',
        files: [{ from: 'server.properties', to: 'plugins/server.properties' }],
      }),
    );
    // One pair out of the folder refuses the whole request: the first pair is not moved either.
    refused(
      await builderClient.put(`${base()}/rename`, {
        root: '/plugins',
        files: [
          { from: 'new.yml', to: 'renamed.yml' },
          { from: 'a.jar', to: '/../a.jar' },
        ],
      }),
    );
    expect(existsSync(at('plugins/a.jar'))).toBe(true);
    expect(existsSync(at('plugins/new.yml'))).toBe(true);
    expect(existsSync(at('a.jar'))).toBe(false);
    expect(existsSync(at('plugins/server.properties'))).toBe(false);
  });

  it('copies inside; refuses copying a file from outside', async () => {
    expect((await builderClient.post(`${base()}/copy`, { location: '/plugins/a.jar' })).status).toBe(204);
    refused(await builderClient.post(`${base()}/copy`, { location: '/server.properties' }));
    refused(await builderClient.post(`${base()}/copy`, { location: '/plugins/../server.properties' }));
    expect(readdirSync(root).filter((n) => n.startsWith('server'))).toEqual(['server.properties']);
  });

  it('deletes and changes modes inside only, checking every entry first', async () => {
    writeFileSync(at('plugins/old.jar'), 'old');
    refused(
      await builderClient.post(`${base()}/delete`, {
        root: '/plugins',
        files: ['old.jar', '../server.properties'],
      }),
    );
    expect(existsSync(at('plugins/old.jar'))).toBe(true);
    expect(existsSync(at('server.properties'))).toBe(true);
    refused(await builderClient.post(`${base()}/delete`, { root: '/', files: ['world'] }));
    expect(
      (await builderClient.post(`${base()}/delete`, { root: '/plugins', files: ['old.jar'] })).status,
    ).toBe(204);
    expect(existsSync(at('plugins/old.jar'))).toBe(false);

    refused(
      await builderClient.post(`${base()}/chmod`, {
        root: '/',
        files: [{ file: 'server.properties', mode: 777 }],
      }),
    );
    expect(statSync(at('server.properties')).mode & 0o777).toBe(0o644);
    const chmod = await builderClient.post(`${base()}/chmod`, {
      root: '/plugins',
      files: [{ file: 'a.jar', mode: 600 }],
    });
    expect(chmod.status, chmod.text).toBe(204);
    expect(statSync(at('plugins/a.jar')).mode & 0o777).toBe(0o600);
  });
});

describe('archives', () => {
  it('compresses inside; refuses an outside entry or an archive written outside', async () => {
    const before = readdirSync(root).sort();
    refused(
      await builderClient.post(`${base()}/compress`, {
        root: '/plugins',
        files: ['a.jar', '../server.properties'],
      }),
    );
    refused(await builderClient.post(`${base()}/compress`, { root: '/', files: ['plugins'] }));
    refused(await builderClient.post(`${base()}/compress`, { files: ['server.properties'] }));
    expect(readdirSync(root).sort()).toEqual(before);

    const ok = await builderClient.post(`${base()}/compress`, { root: '/plugins', files: ['a.jar'] });
    expect(ok.status, ok.text).toBe(200);
    const archive = ok.body.attributes.name as string;
    expect(execFileSync('tar', ['-tzf', at(`plugins/${archive}`)], { encoding: 'utf8' })).toBe('a.jar\n');

    // decompress: the archive and where it goes must both be inside
    refused(await builderClient.post(`${base()}/decompress`, { root: '/', file: `plugins/${archive}` }));
    refused(await builderClient.post(`${base()}/decompress`, { root: '/plugins', file: '../world.tar.gz' }));
    expect(existsSync(at('a.jar'))).toBe(false);
    mkdirSync(at('plugins/unpacked'));
    const un = await builderClient.post(`${base()}/decompress`, {
      root: '/plugins/unpacked',
      file: `../${archive}`,
    });
    expect(un.status, un.text).toBe(204);
    expect(readFileSync(at('plugins/unpacked/a.jar'), 'utf8')).toBe('jar');
  });
});

describe('remote downloads', () => {
  it('refuses a pull into a folder outside, or a file name that climbs out, before the daemon is asked', async () => {
    const url = 'https://example.com/plugin.jar';
    refused(await builderClient.post(`${base()}/pull`, { url }));
    refused(await builderClient.post(`${base()}/pull`, { url, directory: '/world' }));
    refused(await builderClient.post(`${base()}/pull`, { url, directory: '/plugins', filename: '../x.jar' }));
    expect(existsSync(at('x.jar'))).toBe(false);
  });

  it('pulls inside; a pull through a link inside the folder that leads out of it writes nothing outside', async () => {
    symlinkSync('..', at('plugins/pull-up'));
    const out = await builderClient.post(`${base()}/pull`, {
      url: `${originBase}/p.jar`,
      directory: '/plugins/pull-up',
      filename: 'p.jar',
      foreground: true,
    });
    expect(out.status, out.text).toBe(404);
    expect(existsSync(at('p.jar'))).toBe(false);
    const ok = await builderClient.post(`${base()}/pull`, {
      url: `${originBase}/p.jar`,
      directory: '/plugins',
      filename: 'p.jar',
      foreground: true,
    });
    expect(ok.status, ok.text).toBe(204);
    expect(readFileSync(at('plugins/p.jar'), 'utf8')).toBe('pulled bytes');
  });

  it('lists only the running downloads into the folders', async () => {
    const started = await ownerClient.post(`${base()}/pull`, {
      url: `${originBase}/slow.jar`,
      directory: '/world',
    });
    expect(started.status, started.text).toBe(204);
    const running = (res: Res) =>
      (res.body.data as { attributes: { directory: string } }[]).map((d) => d.attributes.directory);
    expect(running(await ownerClient.get(`${base()}/pull`))).toEqual(['/world']);
    const builders = await builderClient.get(`${base()}/pull`);
    expect(builders.status, builders.text).toBe(200);
    expect(running(builders)).toEqual([]);
  });
});

describe('signed URLs', () => {
  it('issues download URLs inside only, and the daemon keeps them there', async () => {
    refused(await builderClient.get(`${base()}/download?file=/server.properties`));
    refused(await builderClient.get(`${base()}/download?file=/plugins/../server.properties`));
    const ok = await builderClient.get(`${base()}/download?file=/plugins/a.jar`);
    expect(ok.status, ok.text).toBe(200);
    const url = ok.body.attributes.url as string;
    const claims = JSON.parse(
      Buffer.from(url.split('token=')[1]!.split('.')[1]!, 'base64url').toString(),
    ) as {
      file_scope?: string[];
    };
    expect(claims.file_scope).toEqual(['/plugins']);
    const file = await fetch(url);
    expect([file.status, await file.text()]).toEqual([200, 'jar']);
  });

  it('upload URLs write inside the folders only', async () => {
    const upload = async (client: TestClient, directory: string, name: string) => {
      const res = await client.get(`${base()}/upload`);
      expect(res.status, res.text).toBe(200);
      const form = new FormData();
      form.append('files', new Blob(['uploaded']), name);
      const url = `${res.body.attributes.url as string}&directory=${encodeURIComponent(directory)}`;
      return fetch(url, { method: 'POST', body: form });
    };
    for (const directory of ['/', '/world', '/plugins/..', '/plugins/../world']) {
      const res = await upload(builderClient, directory, 'up.txt');
      expect([res.status, await res.json()]).toEqual([403, { error: OUTSIDE }]);
    }
    expect(existsSync(at('up.txt'))).toBe(false);
    expect(existsSync(at('world/up.txt'))).toBe(false);
    expect((await upload(builderClient, '/plugins', 'up.txt')).status).toBe(200);
    expect(readFileSync(at('plugins/up.txt'), 'utf8')).toBe('uploaded');
    // The owner's URLs carry no folders.
    expect((await upload(ownerClient, '/world', 'owner.txt')).status).toBe(200);
    expect(existsSync(at('world/owner.txt'))).toBe(true);
  });
});

describe('everyone else', () => {
  it('the owner and a subuser without folders see and use the whole server', async () => {
    for (const client of [ownerClient, fullClient]) {
      expect(names(await client.get(`${base()}/list?directory=/`))).toEqual(
        expect.arrayContaining(['plugins', 'server.properties', 'world']),
      );
      const props = await client.get(`${base()}/contents?file=/plugins/../server.properties`);
      expect([props.status, props.text]).toEqual([200, 'rcon.password=secret\n']);
      const dl = await client.get(`${base()}/download?file=/world/level.dat`);
      expect(dl.status, dl.text).toBe(200);
      expect(
        JSON.parse(
          Buffer.from(
            (dl.body.attributes.url as string).split('token=')[1]!.split('.')[1]!,
            'base64url',
          ).toString(),
        ),
      ).not.toHaveProperty('file_scope');
    }
  });
});

describe('symlinks', () => {
  it('the file routes through a link inside the folder that leads out of it reach nothing outside', async () => {
    symlinkSync('..', at('plugins/to-root'));
    // The names are inside /plugins; the daemon, told the folders, finds the place is not.
    const read = await builderClient.get(`${base()}/contents?file=/plugins/to-root/server.properties`);
    expect(read.status).toBe(404);
    expect(read.text).not.toContain('secret');
    expect((await builderClient.get(`${base()}/list?directory=/plugins/to-root`)).status).toBe(404);
    const write = await builderClient.postRaw(`${base()}/write?file=/plugins/to-root/planted.txt`, 'x');
    expect(write.status).toBe(404);
    const mkdir = await builderClient.post(`${base()}/create-folder`, {
      root: '/plugins/to-root',
      name: 'planted',
    });
    expect(mkdir.status).toBe(404);
    const moved = await builderClient.put(`${base()}/rename`, {
      root: '/plugins',
      files: [{ from: 'a.jar', to: 'to-root/a.jar' }],
    });
    expect(moved.status).toBe(404);
    const copied = await builderClient.post(`${base()}/copy`, {
      location: '/plugins/to-root/server.properties',
    });
    expect(copied.status).toBe(404);
    const deleted = await builderClient.post(`${base()}/delete`, {
      root: '/plugins/to-root',
      files: ['server.properties'],
    });
    expect(deleted.status).toBe(404);
    expect(existsSync(at('planted.txt'))).toBe(false);
    expect(existsSync(at('planted'))).toBe(false);
    expect(existsSync(at('a.jar'))).toBe(false);
    expect(existsSync(at('plugins/a.jar'))).toBe(true);
    expect(readdirSync(root).filter((n) => n.startsWith('server'))).toEqual(['server.properties']);
    // The owner's requests still follow the link inside the server.
    const owners = await ownerClient.get(`${base()}/contents?file=/plugins/to-root/server.properties`);
    expect([owners.status, owners.text]).toEqual([200, 'rcon.password=secret\n']);
  });

  it('a signed URL through a link inside the folder that leads out of it is refused by the daemon', async () => {
    symlinkSync('..', at('plugins/up'));
    // The panel sees a path inside /plugins; the daemon resolves the link and finds it outside.
    const dl = await builderClient.get(`${base()}/download?file=/plugins/up/server.properties`);
    expect(dl.status, dl.text).toBe(200);
    const file = await fetch(dl.body.attributes.url as string);
    expect(file.status).toBe(404);
    expect(await file.text()).not.toContain('secret');

    const up = await builderClient.get(`${base()}/upload`);
    const form = new FormData();
    form.append('files', new Blob(['planted']), 'planted.txt');
    const res = await fetch(`${up.body.attributes.url as string}&directory=/plugins/up`, {
      method: 'POST',
      body: form,
    });
    expect(res.status).toBe(404);
    expect(existsSync(at('planted.txt'))).toBe(false);
    // The owner's URLs still follow the link inside the server.
    const owners = await ownerClient.get(`${base()}/download?file=/plugins/up/server.properties`);
    const ownerFile = await fetch(owners.body.attributes.url as string);
    expect([ownerFile.status, await ownerFile.text()]).toEqual([200, 'rcon.password=secret\n']);
  });
});
