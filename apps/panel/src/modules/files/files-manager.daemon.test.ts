import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, User } from '../../db/types.ts';
import { firstError, type TestClient } from '../../test-support/client.ts';
import type { TestDaemon } from '../../test-support/daemon.ts';
import { startServerWorld, type ServerWorld } from '../../test-support/daemon-servers.ts';
import { subuserClient } from '../../test-support/fixtures.ts';
import type { TestPanel } from '../../test-support/panel.ts';

// The file manager routes through the panel to a real daemon (list, signed URLs, rename, copy,
// compress, decompress, delete, create-folder, chmod).
let world: ServerWorld;
let panel: TestPanel;
let daemon: TestDaemon;
let owner: User;
let ownerClient: TestClient;
let readerClient: TestClient;
let strangerClient: TestClient;
let server: Server;
let root: string;
let outside: string;

const base = () => `/api/client/servers/${server.uuid_short}/files`;
const events = (event: string) => world.events(event);
const at = (p: string) => path.join(root, p);
const REMOTE_NOT_FOUND =
  /^An error occurred on the remote host: The requested resources was not found on the system\. \(request id: [0-9a-f-]+\)$/u;

beforeAll(async () => {
  world = await startServerWorld();
  ({ panel, daemon, owner, server, root, ownerClient } = world);
  // file.read only: may list, nothing else.
  readerClient = (await subuserClient(panel, server, ['file.read'])).client;
  strangerClient = await panel.signedIn(await panel.createUser());
  outside = path.join(tmpdir(), `talon-fm-outside-${server.uuid}`);
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), 'host secret');
  symlinkSync(outside, at('escape'));
}, 120_000);

afterAll(async () => {
  await world?.close();
});

describe('GET /files/list', () => {
  it('lists a directory as file objects', async () => {
    mkdirSync(at('listing/sub'), { recursive: true });
    writeFileSync(at('listing/a.txt'), 'hello');
    const res = await readerClient.get(`${base()}/list?directory=/listing`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.object).toBe('list');
    const byName = Object.fromEntries(
      (res.body.data as { object: string; attributes: { name: string } }[]).map((d) => [
        d.attributes.name,
        d,
      ]),
    );
    expect(byName['a.txt']).toEqual({
      object: 'file_object',
      attributes: {
        name: 'a.txt',
        mode: '-rw-r--r--',
        mode_bits: '644',
        size: 5,
        is_file: true,
        is_symlink: false,
        mimetype: 'text/plain; charset=utf-8',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/u) as string,
        modified_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/u) as string,
      },
    });
    expect(byName.sub?.attributes).toMatchObject({ is_file: false, mimetype: 'inode/directory' });
    expect((await strangerClient.get(`${base()}/list`)).status).toBe(404);
    const through = await ownerClient.get(`${base()}/list?directory=escape`);
    expect(through.status).toBe(404);
    expect(through.text).not.toContain('secret.txt');
  });
});

describe('signed URLs', () => {
  it('GET /files/download: a one-time URL that downloads the file', async () => {
    writeFileSync(at('dl.txt'), 'download me');
    const res = await ownerClient.get(`${base()}/download?file=dl.txt`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.object).toBe('signed_url');
    const url = res.body.attributes.url as string;
    expect(
      url.startsWith(
        `${daemon.node.scheme}://${daemon.node.fqdn}:${daemon.node.daemon_listen}/download/file?token=`,
      ),
    ).toBe(true);
    const claims = JSON.parse(
      Buffer.from(url.split('token=')[1]!.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(claims).toMatchObject({ file_path: 'dl.txt', server_uuid: server.uuid, user_uuid: owner.uuid });
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);
    const file = await fetch(url);
    expect([file.status, await file.text()]).toEqual([200, 'download me']);
    expect((await fetch(url)).status).toBe(404);
    expect(await events('server:file.download')).toContainEqual({ file: 'dl.txt' });
    expect((await readerClient.get(`${base()}/download?file=dl.txt`)).status).toBe(403);
    expect((await ownerClient.get(`${base()}/download`)).status).toBe(422);
    // A link out of the server: the URL is issued, the daemon refuses the file.
    const link = await ownerClient.get(`${base()}/download?file=escape/secret.txt`);
    const refused = await fetch(link.body.attributes.url as string);
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain('host secret');
  });

  it('GET /files/upload: a URL that accepts multipart files into a directory', async () => {
    const res = await ownerClient.get(`${base()}/upload`);
    expect(res.status, res.text).toBe(200);
    const url = res.body.attributes.url as string;
    expect(url).toContain('/upload/file?token=');
    const form = new FormData();
    form.append('files', new Blob(['uploaded']), 'up.txt');
    const up = await fetch(`${url}&directory=/uploads`, { method: 'POST', body: form });
    expect(up.status).toBe(200);
    expect(readFileSync(at('uploads/up.txt'), 'utf8')).toBe('uploaded');
    expect((await readerClient.get(`${base()}/upload`)).status).toBe(403);
  });
});

describe('PUT /files/rename and POST /files/copy', () => {
  it('renames files and logs the event', async () => {
    writeFileSync(at('old.txt'), 'o');
    const res = await ownerClient.put(`${base()}/rename`, {
      root: '/',
      files: [{ from: 'old.txt', to: 'moved/new.txt' }],
    });
    expect(res.status, res.text).toBe(204);
    expect(existsSync(at('old.txt'))).toBe(false);
    expect(readFileSync(at('moved/new.txt'), 'utf8')).toBe('o');
    expect(await events('server:file.rename')).toContainEqual({
      directory: '/',
      files: [{ from: 'old.txt', to: 'moved/new.txt' }],
    });
  });

  it('rename: 422, 403, 400 from the daemon, and nothing moves when refused', async () => {
    const missing = await ownerClient.put(`${base()}/rename`, { root: '/', files: [{ from: 'a' }] });
    expect(missing.status).toBe(422);
    expect(firstError(missing).meta).toEqual({ source_field: 'files.0.to', rule: 'required' });
    expect((await ownerClient.put(`${base()}/rename`, { files: [] })).status).toBe(422);
    writeFileSync(at('keep-a.txt'), 'A');
    writeFileSync(at('keep-b.txt'), 'B');
    const exists = await ownerClient.put(`${base()}/rename`, {
      root: '/',
      files: [{ from: 'keep-a.txt', to: 'keep-b.txt' }],
    });
    expect(exists.status).toBe(400);
    expect(firstError(exists).detail).toMatch(
      /^An error occurred on the remote host: Cannot move or rename file, destination already exists\. \(request id: /u,
    );
    expect(readFileSync(at('keep-b.txt'), 'utf8')).toBe('B');
    expect(
      (
        await readerClient.put(`${base()}/rename`, {
          root: '/',
          files: [{ from: 'keep-a.txt', to: 'r.txt' }],
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await strangerClient.put(`${base()}/rename`, {
          root: '/',
          files: [{ from: 'keep-a.txt', to: 'r.txt' }],
        })
      ).status,
    ).toBe(404);
    const out = await ownerClient.put(`${base()}/rename`, {
      root: '/',
      files: [{ from: 'keep-a.txt', to: 'escape/planted.txt' }],
    });
    expect(out.status).toBe(404);
    expect(existsSync(at('keep-a.txt'))).toBe(true);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('copy: next to the source, event logged; 422/403/404 refusals', async () => {
    writeFileSync(at('cp.txt'), 'c');
    expect((await ownerClient.post(`${base()}/copy`, { location: 'cp.txt' })).status).toBe(204);
    expect(readFileSync(at('cp copy.txt'), 'utf8')).toBe('c');
    expect(await events('server:file.copy')).toContainEqual({ file: 'cp.txt' });
    expect((await ownerClient.post(`${base()}/copy`, {})).status).toBe(422);
    expect((await readerClient.post(`${base()}/copy`, { location: 'cp.txt' })).status).toBe(403);
    const link = await ownerClient.post(`${base()}/copy`, { location: 'escape/secret.txt' });
    expect(link.status).toBe(404);
    expect(firstError(link).detail).toMatch(REMOTE_NOT_FOUND);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });
});

describe('archives', () => {
  it('compress answers the archive as a file_object; decompress extracts it', async () => {
    mkdirSync(at('pack'), { recursive: true });
    writeFileSync(at('pack/one.txt'), 'one');
    const res = await ownerClient.post(`${base()}/compress`, { root: '/pack', files: ['one.txt', 'escape'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.object).toBe('file_object');
    expect(res.body.attributes).toMatchObject({ is_file: true, mimetype: 'application/tar+gzip' });
    const name = res.body.attributes.name as string;
    expect(execFileSync('tar', ['-tzf', at(`pack/${name}`)], { encoding: 'utf8' })).toBe('one.txt\n');
    expect(await events('server:file.compress')).toContainEqual({
      directory: '/pack',
      files: ['one.txt', 'escape'],
    });

    mkdirSync(at('unpack'), { recursive: true });
    writeFileSync(at('unpack/a.tar.gz'), readFileSync(at(`pack/${name}`)));
    const un = await ownerClient.post(`${base()}/decompress`, { root: '/unpack', file: 'a.tar.gz' });
    expect(un.status, un.text).toBe(204);
    expect(readFileSync(at('unpack/one.txt'), 'utf8')).toBe('one');
    expect(await events('server:file.decompress')).toContainEqual({ directory: '/unpack', file: 'a.tar.gz' });
  });

  it('refusals: 422s, permissions, an unknown format; a zip-slip archive writes nothing', async () => {
    expect((await ownerClient.post(`${base()}/compress`, { root: '/' })).status).toBe(422);
    expect((await ownerClient.post(`${base()}/decompress`, { root: '/' })).status).toBe(422);
    expect((await readerClient.post(`${base()}/compress`, { files: ['pack'] })).status).toBe(403);
    expect((await readerClient.post(`${base()}/decompress`, { file: 'x.tar' })).status).toBe(403);
    writeFileSync(at('plain.txt'), 'not an archive');
    const unknown = await ownerClient.post(`${base()}/decompress`, { file: 'plain.txt' });
    expect(unknown.status).toBe(400);
    expect(firstError(unknown).detail).toMatch(
      /The archive provided is in a format Wings does not understand\./u,
    );
    // A tar whose second entry climbs out of the server.
    const src = path.join(tmpdir(), `talon-slip-${server.uuid}`);
    mkdirSync(path.join(src, 'a'), { recursive: true });
    writeFileSync(path.join(src, 'a', 'first.txt'), 'first');
    writeFileSync(path.join(src, 'evil.txt'), 'evil');
    execFileSync('tar', [
      '-P',
      '-czf',
      at('slip.tar.gz'),
      '-C',
      path.join(src, 'a'),
      'first.txt',
      '../evil.txt',
    ]);
    const slip = await ownerClient.post(`${base()}/decompress`, { file: 'slip.tar.gz' });
    expect(slip.status).toBe(404);
    expect(existsSync(at('first.txt'))).toBe(false);
    expect(existsSync(path.join(daemon.node.daemon_base, 'evil.txt'))).toBe(false);
  });
});

describe('POST /files/delete, /files/create-folder, /files/chmod', () => {
  it('create-folder then delete, with events', async () => {
    const mk = await ownerClient.post(`${base()}/create-folder`, { root: '/made', name: 'here' });
    expect(mk.status, mk.text).toBe(204);
    expect(lstatSync(at('made/here')).isDirectory()).toBe(true);
    expect(await events('server:file.create-directory')).toContainEqual({ directory: '/made', name: 'here' });
    const del = await ownerClient.post(`${base()}/delete`, { root: '/', files: ['made'] });
    expect(del.status, del.text).toBe(204);
    expect(existsSync(at('made'))).toBe(false);
    expect(await events('server:file.delete')).toContainEqual({ directory: '/', files: ['made'] });
  });

  it('delete and create-folder refusals leave the disk as it was', async () => {
    writeFileSync(at('stay.txt'), 's');
    expect((await ownerClient.post(`${base()}/delete`, { files: ['stay.txt'] })).status).toBe(422);
    expect((await readerClient.post(`${base()}/delete`, { root: '/', files: ['stay.txt'] })).status).toBe(
      403,
    );
    expect((await strangerClient.post(`${base()}/delete`, { root: '/', files: ['stay.txt'] })).status).toBe(
      404,
    );
    expect(
      (await ownerClient.post(`${base()}/delete`, { root: '/', files: ['escape/secret.txt'] })).status,
    ).toBe(404);
    // Deleting the link removes the link only.
    symlinkSync(outside, at('escape2'));
    expect((await ownerClient.post(`${base()}/delete`, { root: '/', files: ['escape2'] })).status).toBe(204);
    expect(existsSync(at('escape2'))).toBe(false);
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('host secret');
    expect(existsSync(at('stay.txt'))).toBe(true);
    expect((await ownerClient.post(`${base()}/create-folder`, { root: '/' })).status).toBe(422);
    expect((await readerClient.post(`${base()}/create-folder`, { name: 'x' })).status).toBe(403);
    expect(
      (await ownerClient.post(`${base()}/create-folder`, { root: 'escape', name: 'planted' })).status,
    ).toBe(404);
    expect(existsSync(at('x'))).toBe(false);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('chmod: numeric modes become octal strings; links are never followed; an event for what changed', async () => {
    writeFileSync(at('run.sh'), '#!/bin/sh');
    const res = await ownerClient.post(`${base()}/chmod`, {
      root: '/',
      files: [{ file: 'run.sh', mode: 755 }],
    });
    expect(res.status, res.text).toBe(204);
    expect(statSync(at('run.sh')).mode & 0o777).toBe(0o755);
    const bad = await ownerClient.post(`${base()}/chmod`, {
      root: '/',
      files: [{ file: 'run.sh', mode: 'rwx' }],
    });
    expect(bad.status).toBe(422);
    expect(firstError(bad).meta).toEqual({ source_field: 'files.0.mode', rule: 'numeric' });
    expect(
      (await readerClient.post(`${base()}/chmod`, { root: '/', files: [{ file: 'run.sh', mode: 700 }] }))
        .status,
    ).toBe(403);
    const before = statSync(path.join(outside, 'secret.txt')).mode;
    const link = await ownerClient.post(`${base()}/chmod`, {
      root: '/',
      files: [{ file: 'escape/secret.txt', mode: 777 }],
    });
    expect(link.status).toBe(404);
    expect(statSync(path.join(outside, 'secret.txt')).mode).toBe(before);
    expect(statSync(at('run.sh')).mode & 0o777).toBe(0o755);
    // Every mutation of the server area is in its activity log; refused requests are not.
    expect(await events('server:file.chmod')).toEqual([
      { directory: '/', files: [{ file: 'run.sh', mode: '755' }] },
    ]);
  });

  it('a suspended server: 409 and nothing changes', async () => {
    writeFileSync(at('frozen.txt'), 'f');
    await panel.ctx.repositories.servers.update(server.id, { status: 'suspended' });
    try {
      expect((await ownerClient.post(`${base()}/delete`, { root: '/', files: ['frozen.txt'] })).status).toBe(
        409,
      );
      expect((await ownerClient.get(`${base()}/list`)).status).toBe(409);
      expect((await ownerClient.get(`${base()}/download?file=frozen.txt`)).status).toBe(409);
    } finally {
      await panel.ctx.repositories.servers.update(server.id, { status: null });
    }
    expect(existsSync(at('frozen.txt'))).toBe(true);
  });
});
