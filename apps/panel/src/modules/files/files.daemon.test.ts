import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../../db/types.ts';
import { expectError, firstError, type TestClient } from '../../test-support/client.ts';
import { startServerWorld, type ServerWorld } from '../../test-support/daemon-servers.ts';
import { subuserClient } from '../../test-support/fixtures.ts';
import type { TestPanel } from '../../test-support/panel.ts';

// File contents and writes through the panel to a real daemon, which keeps them inside the server.
let world: ServerWorld;
let panel: TestPanel;
let ownerClient: TestClient;
let readerClient: TestClient;
let server: Server;
let root: string;

const base = () => `/api/client/servers/${server.uuid_short}/files`;
const events = (event: string) => world.events(event);

beforeAll(async () => {
  world = await startServerWorld();
  ({ panel, server, root, ownerClient } = world);
  readerClient = (await subuserClient(panel, server, ['file.read', 'file.read-content'])).client;
}, 120_000);

afterAll(async () => {
  await world?.close();
});

describe('POST /files/write and GET /files/contents', () => {
  it('writes the raw body, whatever its content type, and reads it back as text', async () => {
    const write = await ownerClient.postRaw(`${base()}/write?file=config/server.properties`, 'motd=hi\n');
    expect(write.status, write.text).toBe(204);
    expect(readFileSync(path.join(root, 'config/server.properties'), 'utf8')).toBe('motd=hi\n');
    // A body that looks like JSON is still the file, byte for byte.
    const json = '{ "looks": "like json" }';
    expect(
      (await ownerClient.postRaw(`${base()}/write?file=data.json`, json, 'application/json')).status,
    ).toBe(204);
    expect(readFileSync(path.join(root, 'data.json'), 'utf8')).toBe(json);

    const read = await readerClient.get(`${base()}/contents?file=/config/server.properties`);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(read.text).toBe('motd=hi\n');
    const readJson = await readerClient.get(`${base()}/contents?file=data.json`);
    expect(readJson.text).toBe(json);
    expect(await events('server:file.write')).toEqual([
      { file: 'config/server.properties' },
      { file: 'data.json' },
    ]);
    expect(await events('server:file.read')).toContainEqual({ file: '/config/server.properties' });
  });

  it('writes an empty file from an empty body', async () => {
    expect((await ownerClient.postRaw(`${base()}/write?file=empty.txt`, '')).status).toBe(204);
    expect(readFileSync(path.join(root, 'empty.txt'), 'utf8')).toBe('');
  });

  it('refuses files larger than the editor limit without downloading them', async () => {
    writeFileSync(path.join(root, 'big.log'), Buffer.alloc(4 * 1024 * 1024 + 1, 'a'));
    const res = await ownerClient.get(`${base()}/contents?file=big.log`);
    expectError(
      res,
      400,
      'FileSizeTooLargeException',
      'The file you are attempting to open is too large to view in the file editor.',
    );
  });

  it('keeps paths inside the server: traversal and links out are refused, nothing is written', async () => {
    const outside = path.join(tmpdir(), `talon-outside-${server.uuid}`);
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(outside, 'secret.txt'), 'host secret');
    symlinkSync(outside, path.join(root, 'escape'));

    const read = await ownerClient.get(`${base()}/contents?file=../../../../../../etc/hostname`);
    expect(read.status).toBe(404);
    expect(firstError(read).code).toBe('DaemonConnectionException');
    expect(firstError(read).detail).toMatch(
      /^An error occurred on the remote host: The requested resources was not found on the system\. \(request id: [0-9a-f-]+\)$/u,
    );
    const viaLink = await ownerClient.get(`${base()}/contents?file=escape/secret.txt`);
    expect(viaLink.status).toBe(404);
    expect(viaLink.text).not.toContain('host secret');

    const write = await ownerClient.postRaw(`${base()}/write?file=escape/planted.txt`, 'x');
    expect(write.status).toBe(404);
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
  });

  it('checks permissions, input and the server state before calling the daemon', async () => {
    const denied = await readerClient.postRaw(`${base()}/write?file=owned.txt`, 'x');
    expect(denied.status).toBe(403);
    expect(existsSync(path.join(root, 'owned.txt'))).toBe(false);

    const missing = await ownerClient.postRaw(`${base()}/write`, 'x');
    expect(missing.status).toBe(422);
    expect(firstError(missing).meta.source_field).toBe('file');
    expect((await ownerClient.get(`${base()}/contents`)).status).toBe(422);

    const stranger = await panel.signedIn(await panel.createUser());
    expect((await stranger.get(`${base()}/contents?file=data.json`)).status).toBe(404);

    await panel.ctx.repositories.servers.update(server.id, { status: 'suspended' });
    const suspended = await ownerClient.postRaw(`${base()}/write?file=data.json`, 'changed');
    expect(suspended.status).toBe(409);
    await panel.ctx.repositories.servers.update(server.id, { status: null });
    expect(readFileSync(path.join(root, 'data.json'), 'utf8')).toBe('{ "looks": "like json" }');
  });
});
