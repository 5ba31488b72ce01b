import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkSize } from '../fs/disk-usage.ts';
import { fixtureServer, startStack, type Stack } from '../test-support/harness.ts';
import { sftpCode, sftpLogin, sftpOp, type SshClient } from '../test-support/sftp-client.ts';

// CVE-2026-61617 (GHSA-8j54-xcwx-597p): SFTP writes skipped the disk quota, so one server could
// fill the node's disk. Each case writes through a real SFTP client into a server with a 1 MiB
// limit and then measures what is really on disk. The disk walk runs once an hour here, so the
// daemon's own accounting is what holds the limit (a walk in between would hide a hole).

const MIB = 1024 * 1024;
const KIB = 1024;
const FAILURE = 4;

let stack: Stack;
let port: number;
const clients: SshClient[] = [];

beforeAll(async () => {
  stack = await startStack({ forceNoBwrap: true });
  // Read when each server is created: the servers of this file walk their disk once an hour.
  stack.config.system.disk_check_interval = 3600;
  port = await stack.daemon.listenSftp(0);
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.end();
  await stack?.dispose();
});

/** A new installed server with `diskMiB` of disk and an SFTP session into it. */
async function serverWithSession(diskMiB: number) {
  const uuid = randomUUID();
  const fixture = fixtureServer(uuid);
  await stack.createInstalled(uuid, {
    settings: { build: { ...(fixture.settings.build as object), disk_space: diskMiB } },
  });
  const username = `quota${stack.remote.sftpAccounts.length}`;
  stack.remote.sftpAccounts.push({
    username,
    password: 'quota secret',
    publicKeys: [],
    server: uuid,
    user: randomUUID(),
    permissions: ['*'],
  });
  const { client, sftp } = await sftpLogin(port, `${username}.${uuid.slice(0, 8)}`, 'quota secret');
  clients.push(client);
  const dir = stack.daemon.manager.get(uuid)!.dir;
  return { uuid, sftp, dir, used: () => walkSize(dir) };
}

describe('SFTP writes honour the disk limit mid-write (CVE-2026-61617)', () => {
  it('a handle kept open while the file is truncated by a second open cannot rewrite it for free', async () => {
    const { sftp, used } = await serverWithSession(1);
    const piece = Buffer.alloc(768 * KIB, 1);
    const h1 = await sftpOp.open(sftp, '/a.bin', 'w');
    expect(await sftpCode(sftpOp.write(sftp, h1, piece, 0))).toBe('ok');
    // A second open truncates the file: its 768 KiB are freed in the account...
    await sftpOp.close(sftp, await sftpOp.open(sftp, '/a.bin', 'w'));
    // ...and the first handle writes them again: they must be counted again.
    expect(await sftpCode(sftpOp.write(sftp, h1, piece, 0))).toBe('ok');
    const h2 = await sftpOp.open(sftp, '/b.bin', 'w');
    expect(await sftpCode(sftpOp.write(sftp, h2, piece, 0))).toBe(FAILURE);
    expect(await used()).toBeLessThanOrEqual(1 * MIB);
  });

  it('writes sent at once on many handles are counted together, not each against the same total', async () => {
    const { sftp, used } = await serverWithSession(1);
    const handles = await Promise.all(
      Array.from({ length: 48 }, (_, i) => sftpOp.open(sftp, `/part-${i}.bin`, 'w')),
    );
    // 48 × 32 KiB = 1.5 MiB, all in flight together.
    const codes = await Promise.all(
      handles.map((h) => sftpCode(sftpOp.write(sftp, h, Buffer.alloc(32 * KIB, 2), 0))),
    );
    expect(codes.filter((c) => c === FAILURE).length).toBeGreaterThan(0);
    expect(codes.every((c) => c === 'ok' || c === FAILURE)).toBe(true);
    expect(await used()).toBeLessThanOrEqual(1 * MIB);
  });

  it('one handle writing past the limit fails when it crosses it, the file stops growing, other servers go on', async () => {
    const small = await serverWithSession(1);
    const other = await serverWithSession(4);
    const h = await sftpOp.open(small.sftp, '/big.bin', 'w');
    const chunk = Buffer.alloc(32 * KIB, 3);
    // Pipelined as a client uploads: 64 writes in flight, 2 MiB in all.
    const codes = await Promise.all(
      Array.from({ length: 64 }, (_, i) => sftpCode(sftpOp.write(small.sftp, h, chunk, i * chunk.length))),
    );
    const firstRefused = codes.indexOf(FAILURE);
    expect(firstRefused).toBeGreaterThan(0);
    const size = (await stat(path.join(small.dir, 'big.bin'))).size;
    expect(size).toBeLessThanOrEqual(1 * MIB);
    // What fitted is kept: the writes before the limit all landed.
    expect(size).toBeGreaterThanOrEqual(firstRefused * chunk.length);
    expect(await sftpCode(sftpOp.write(small.sftp, h, chunk, 2 * MIB))).toBe(FAILURE);
    expect((await stat(path.join(small.dir, 'big.bin'))).size).toBe(size);
    // Another server's quota is its own.
    const oh = await sftpOp.open(other.sftp, '/fine.bin', 'w');
    expect(await sftpCode(sftpOp.write(other.sftp, oh, Buffer.alloc(2 * MIB, 4), 0))).toBe('ok');
    expect(await other.used()).toBe(2 * MIB);
  });

  it('a pipelined upload that fits is counted once (no write counted for the bytes before it)', async () => {
    const { sftp, used } = await serverWithSession(1);
    const h = await sftpOp.open(sftp, '/fits.bin', 'w');
    const chunk = Buffer.alloc(32 * KIB, 5);
    const codes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sftpCode(sftpOp.write(sftp, h, chunk, i * chunk.length))),
    );
    expect(codes.every((c) => c === 'ok')).toBe(true);
    await sftpOp.close(sftp, h);
    expect(await used()).toBe(640 * KIB);
    // 384 KiB are left: a 256 KiB file still fits.
    const h2 = await sftpOp.open(sftp, '/more.bin', 'w');
    expect(await sftpCode(sftpOp.write(sftp, h2, Buffer.alloc(256 * KIB, 6), 0))).toBe('ok');
  });
});
