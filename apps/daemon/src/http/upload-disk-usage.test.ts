import { randomUUID } from 'node:crypto';
import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Jail } from '../fs/jail.ts';
import { TOKEN, fixtureServer, startStack, waitUntil, type Stack } from '../test-support/harness.ts';
import { signToken } from '../test-support/jwt-sign.ts';
import { PacedRequest, multipart } from '../test-support/paced-request.ts';

const KIB = 1024;
const NO_SPACE = { error: 'There is not enough disk space available to perform that action.' };

/**
 * A disk-usage walk that runs while an upload is still arriving sees the upload's temporary file.
 * The bytes must be counted once: by the walk or by the upload's own accounting, never by both (a
 * double count makes the server look fuller than it is and refuses writes that fit the quota).
 * The walk is run explicitly while the paced body is held half-way, so the order is certain.
 */
describe('disk usage while an upload is in flight', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ config: { api: { host: '127.0.0.1', port: 0, upload_limit: 4 } } });
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  /** A fresh server with a 1 MiB quota (each test its own, so their usage does not mix). */
  const server = async (): Promise<{ uuid: string; dir: string }> => {
    const id = randomUUID();
    const uuid = await stack.createInstalled(id, {
      settings: { build: { ...(fixtureServer(id).settings.build as object), disk_space: 1 } },
    });
    return { uuid, dir: path.join(stack.config.system.data, uuid) };
  };
  /** The bytes a fresh walk finds (what the disk really holds). */
  const onDisk = async (dir: string): Promise<number> => (await new Jail(dir).usage()).bytes;
  /** Size of the upload's temporary file (0 while there is none). */
  const staged = async (dir: string): Promise<number> => {
    let total = 0;
    for (const n of await readdir(dir))
      if (n.startsWith('.talon-upload-')) total += (await stat(path.join(dir, n))).size;
    return total;
  };
  const writeSmall = (uuid: string, file: string, bytes: number): Promise<Response> =>
    fetch(`${stack.url}/api/servers/${uuid}/files/write?file=${file}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/octet-stream' },
      body: Buffer.alloc(bytes, 0x63),
    });

  it('upload: a walk mid-body does not count the temporary file twice', async () => {
    const { uuid, dir } = await server();
    const s = stack.daemon.manager.get(uuid)!;
    const base = await s.disk.refresh();
    const t = await signToken(TOKEN, {
      scope: 'file-upload',
      exp: Math.floor(Date.now() / 1000) + 60,
      unique_id: randomUUID(),
      server_uuid: uuid,
    });
    const req = new PacedRequest(`${stack.url}/upload/file?token=${t}&directory=/`, 'POST', {
      'Content-Type': multipart.contentType,
    });
    await req.write(multipart.fileHead('world.bin'));
    await req.writeBytes(512 * KIB);
    await waitUntil(async () => (await staged(dir)) === 512 * KIB, 10_000, 'half the upload on disk');
    // The periodic walk, now: it meets the temporary file the upload is still writing.
    const mid = await s.disk.refresh();
    expect(mid).toBe(base + 512 * KIB);
    await req.writeBytes(256 * KIB);
    expect((await req.end(multipart.close)).status).toBe(200);

    expect(s.disk.cached).toBe(await onDisk(dir));
    // 768 KiB of 1 MiB used: 200 KiB more fits (with the double count the server looked full).
    const more = await writeSmall(uuid, 'more.bin', 200 * KIB);
    expect(more.status).toBe(204);
    expect(s.disk.cached).toBe(await onDisk(dir));
  });

  it('files/write: a walk mid-body does not count the temporary file twice', async () => {
    const { uuid, dir } = await server();
    const s = stack.daemon.manager.get(uuid)!;
    const base = await s.disk.refresh();
    const req = new PacedRequest(`${stack.url}/api/servers/${uuid}/files/write?file=world.bin`, 'POST', {
      Authorization: `Bearer ${TOKEN}`,
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(768 * KIB),
    });
    await req.writeBytes(512 * KIB);
    await waitUntil(async () => (await staged(dir)) === 512 * KIB, 10_000, 'half the body on disk');
    expect(await s.disk.refresh()).toBe(base + 512 * KIB);
    await req.writeBytes(256 * KIB);
    expect((await req.end()).status).toBe(204);

    expect(s.disk.cached).toBe(await onDisk(dir));
    expect((await writeSmall(uuid, 'more.bin', 200 * KIB)).status).toBe(204);
    // And a write that does not fit is still refused.
    const over = await writeSmall(uuid, 'over.bin', 200 * KIB);
    expect([over.status, await over.json()]).toEqual([400, NO_SPACE]);
  });

  it('two writes that each fit but not together: the second is refused as its bytes arrive', async () => {
    const { uuid, dir } = await server();
    const s = stack.daemon.manager.get(uuid)!;
    await s.disk.refresh();
    const open = (file: string): PacedRequest =>
      new PacedRequest(`${stack.url}/api/servers/${uuid}/files/write?file=${file}`, 'POST', {
        Authorization: `Bearer ${TOKEN}`,
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(700 * KIB),
      });
    // Both pass the check of their announced length while nothing is written yet.
    const first = open('first.bin');
    await first.write('x');
    await waitUntil(async () => (await staged(dir)) === 1, 10_000, 'the first write staged');
    const second = open('second.bin');
    await second.write('y');
    await waitUntil(async () => (await staged(dir)) === 2, 10_000, 'the second write staged');
    await first.writeBytes(700 * KIB - 1);
    expect((await first.end()).status).toBe(204);
    await second.writeBytes(700 * KIB - 1);
    const res = await second.end();
    expect([res.status, JSON.parse(res.text)]).toEqual([400, NO_SPACE]);
    expect((await readdir(dir)).filter((n) => n.endsWith('.bin')).sort()).toEqual(['first.bin']);
    expect(await staged(dir)).toBe(0);
    expect(s.disk.cached).toBe(await onDisk(dir));
  });

  it('a file of the user named like a temporary upload is still counted (the walk skips only staged inodes)', async () => {
    const { uuid, dir } = await server();
    const s = stack.daemon.manager.get(uuid)!;
    const base = await s.disk.refresh();
    await writeFile(path.join(dir, '.talon-upload-hidden'), Buffer.alloc(900 * KIB));
    expect(await s.disk.refresh()).toBe(base + 900 * KIB);
    const over = await writeSmall(uuid, 'more.bin', 200 * KIB);
    expect([over.status, await over.json()]).toEqual([400, NO_SPACE]);
  });
});
