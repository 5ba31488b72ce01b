import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../../db/types.ts';
import { nodeUrl } from '../../daemon-client/daemon-client.ts';
import type { TestClient } from '../../test-support/client.ts';
import { startServerWorld, waitUntil, type ServerWorld } from '../../test-support/daemon-servers.ts';
import { subuserClient } from '../../test-support/fixtures.ts';

// Every token the panel signs for a daemon names its one purpose (protocol §9.2b,
// GHSA-8r6w-3qq5-4p4r / CVE-2026-54593), and the real daemon holds it to that purpose: a subuser
// with only the console, or with files limited to /plugins, cannot turn their token into an upload
// that overwrites /server.js.
let world: ServerWorld;
let server: Server;
let root: string;
let ownerClient: TestClient;
const ORIGINAL = 'the original server.js\n';
/** The backup the first test makes (of /server.js and /plugins). */
let backupUuid = '';

const base = () => `/api/client/servers/${server.uuid_short}`;
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
const tokenOfUrl = (url: string) => new URL(url).searchParams.get('token')!;

/** What the browser does with an upload URL: a multipart POST into `directory`. */
function upload(token: string, directory: string, name: string, content: string) {
  const form = new FormData();
  form.append('files', new Blob([content]), name);
  const url = `${nodeUrl(world.daemon.node)}/upload/file?token=${token}&directory=${encodeURIComponent(directory)}`;
  return fetch(url, { method: 'POST', body: form });
}

beforeAll(async () => {
  world = await startServerWorld();
  ({ server, root, ownerClient } = world);
  await world.panel.ctx.repositories.servers.update(server.id, { backup_limit: 1 });
  writeFileSync(path.join(root, 'server.js'), ORIGINAL);
  mkdirSync(path.join(root, 'plugins'), { recursive: true });
  writeFileSync(path.join(root, 'plugins/a.jar'), 'jar');
}, 120_000);

afterAll(async () => {
  await world?.close();
});

describe('the scope of the tokens the panel hands out', () => {
  it('websocket, file-download, file-upload and backup-download, one each, with the times of one clock', async () => {
    const socket = await ownerClient.get(`${base()}/websocket`);
    expect(socket.status, socket.text).toBe(200);
    const ws = claimsOf(socket.body.data.token as string);
    expect(ws.scope).toBe('websocket');
    expect(ws.exp).toBe((ws.iat as number) + 600);
    expect(Math.floor((ws.issued_at_ms as number) / 1000)).toBe(ws.iat);

    const download = await ownerClient.get(`${base()}/files/download?file=/server.js`);
    expect(download.status, download.text).toBe(200);
    expect(claimsOf(tokenOfUrl(download.body.attributes.url as string))).toMatchObject({
      scope: 'file-download',
      file_path: '/server.js',
    });

    const up = await ownerClient.get(`${base()}/files/upload`);
    expect(up.status, up.text).toBe(200);
    expect(claimsOf(tokenOfUrl(up.body.attributes.url as string)).scope).toBe('file-upload');

    const made = await ownerClient.post(`${base()}/backups`, {});
    expect(made.status, made.text).toBe(200);
    const uuid = (backupUuid = made.body.attributes.uuid as string);
    await waitUntil(
      'the backup',
      () => ownerClient.get(`${base()}/backups/${uuid}`),
      (r) => r.body.attributes.completed_at !== null,
      120_000,
    );
    const backup = await ownerClient.get(`${base()}/backups/${uuid}/download`);
    expect(backup.status, backup.text).toBe(200);
    expect(claimsOf(tokenOfUrl(backup.body.attributes.url as string))).toMatchObject({
      scope: 'backup-download',
      backup_uuid: uuid,
    });
  }, 150_000);
});

describe('a token cannot be used for another purpose (the attack of GHSA-8r6w-3qq5-4p4r)', () => {
  it("a console-only subuser limited to /plugins cannot upload /server.js with the console's token", async () => {
    const { client } = await subuserClient(world.panel, server, ['websocket.connect', 'control.console'], {
      filePaths: ['/plugins'],
    });
    const credentials = await client.get(`${base()}/websocket`);
    expect(credentials.status, credentials.text).toBe(200);
    const res = await upload(credentials.body.data.token as string, '/', 'server.js', 'taken over');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(readFileSync(path.join(root, 'server.js'), 'utf8')).toBe(ORIGINAL);
  });

  it('a file-download token of /plugins does not upload either; the upload URL does, inside /plugins', async () => {
    const { client } = await subuserClient(
      world.panel,
      server,
      ['file.read', 'file.read-content', 'file.create'],
      {
        filePaths: ['/plugins'],
      },
    );
    const download = await client.get(`${base()}/files/download?file=/plugins/a.jar`);
    expect(download.status, download.text).toBe(200);
    const res = await upload(
      tokenOfUrl(download.body.attributes.url as string),
      '/',
      'server.js',
      'taken over',
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(readFileSync(path.join(root, 'server.js'), 'utf8')).toBe(ORIGINAL);
    // The token made for uploading works, for its own folder only.
    const up = await client.get(`${base()}/files/upload`);
    const token = tokenOfUrl(up.body.attributes.url as string);
    expect((await upload(token, '/plugins', 'b.jar', 'new jar')).status).toBe(200);
    expect(readFileSync(path.join(root, 'plugins/b.jar'), 'utf8')).toBe('new jar');
  });
});

describe('a backup download of a subuser limited to folders', () => {
  it('serves only the entries inside their folders (the token carries them)', async () => {
    expect(backupUuid).not.toBe('');
    const { client } = await subuserClient(world.panel, server, ['backup.read', 'backup.download'], {
      filePaths: ['/plugins'],
    });
    const res = await client.get(`${base()}/backups/${backupUuid}/download`);
    expect(res.status, res.text).toBe(200);
    const url = res.body.attributes.url as string;
    expect(claimsOf(tokenOfUrl(url)).file_scope).toEqual(['/plugins']);
    const archive = await fetch(url);
    expect(archive.status).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'talon-scoped-backup-'));
    try {
      writeFileSync(path.join(dir, 'b.tar.gz'), Buffer.from(await archive.arrayBuffer()));
      const entries = execFileSync('tar', ['-tzf', path.join(dir, 'b.tar.gz')], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((e) => e.replace(/^\.\//u, ''));
      expect(entries).toContain('plugins/a.jar');
      expect(entries.filter((e) => !e.startsWith('plugins'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
