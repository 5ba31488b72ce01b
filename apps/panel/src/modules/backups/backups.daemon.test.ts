import { spawn, execFile as execFileCb, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Backup, Server } from '../../db/types.ts';
import { nodeUrl } from '../../daemon-client/daemon-client.ts';
import { pruneBackups } from '../../jobs/backup-prune.ts';
import { signDaemonToken } from '../../lib/jwt.ts';
import { expectError, type TestClient } from '../../test-support/client.ts';
import {
  daemonServerRow,
  startServerWorld,
  waitUntil,
  type ServerWorld,
} from '../../test-support/daemon-servers.ts';
import { subuserClient } from '../../test-support/fixtures.ts';
import type { TestPanel } from '../../test-support/panel.ts';

const execFile = promisify(execFileCb);

// Backups end to end: one panel and one real daemon for the file. Archives are made, downloaded
// through the signed URL and read with `tar`, restored with and without truncation, locked,
// deleted, rotated by a scheduled backup, lost when the daemon is killed mid-way, and removed
// with their server.
let world: ServerWorld;
let panel: TestPanel;
let ownerClient: TestClient;
let server: Server;
let root: string;
let work: string;
/** the daemon's configuration file and backup directory */
let configFile: string;
let backupDir: string;
/** daemons this file started itself after the world's (restarts) */
const restarted: ChildProcess[] = [];

const base = (s: Pick<Server, 'uuid_short'> = server) => `/api/client/servers/${s.uuid_short}/backups`;
const MTIME = new Date('2021-06-07T08:09:10Z');
const FILES: Record<string, { content: string | Buffer; mode: number }> = {
  'server.properties': { content: 'motd=hello\nmax-players=4\n', mode: 0o640 },
  'bin/start.sh': { content: '#!/bin/sh\necho start\n', mode: 0o755 },
  'world/region/r.0.0.mca': { content: randomBytes(64 * 1024), mode: 0o644 },
  'logs/latest.log': { content: 'ignored log\n', mode: 0o644 },
  'cache/blob.bin': { content: 'ignored cache\n', mode: 0o600 },
};
const IGNORED = '*.log\n\n cache/ \n';
const KEPT = ['server.properties', 'bin/start.sh', 'world/region/r.0.0.mca'];

function writeFiles(dir: string): void {
  for (const [name, f] of Object.entries(FILES)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.content);
    chmodSync(file, f.mode);
    utimesSync(file, MTIME, MTIME);
  }
}

/** content, permission bits and whole-second mtime of a file: what a restore must bring back */
function snapshot(file: string) {
  const st = statSync(file);
  return {
    content: readFileSync(file).toString('base64'),
    mode: st.mode & 0o7777,
    mtime: Math.floor(st.mtimeMs / 1000),
  };
}

async function createBackup(body: Record<string, unknown> = {}, s: Server = server): Promise<Backup> {
  const res = await ownerClient.post(base(s), body);
  expect(res.status, res.text).toBe(200);
  return (await panel.ctx.repositories.backups.find(s.id, res.body.attributes.uuid as string))!;
}

/** Polls the API until the backup is completed; returns its attributes. */
async function completed(b: Pick<Backup, 'uuid'>, s: Server = server) {
  const res = await waitUntil(
    `backup ${b.uuid}`,
    () => ownerClient.get(`${base(s)}/${b.uuid}`),
    (r) => r.status !== 200 || r.body.attributes.completed_at !== null,
    120_000,
  );
  expect(res.status, res.text).toBe(200);
  return res.body.attributes as { is_successful: boolean; checksum: string; bytes: number };
}

async function download(b: Pick<Backup, 'uuid'>): Promise<Buffer> {
  const res = await ownerClient.get(`${base()}/${b.uuid}/download`);
  expect(res.status, res.text).toBe(200);
  const got = await fetch(res.body.attributes.url as string);
  expect(got.status).toBe(200);
  return Buffer.from(await got.arrayBuffer());
}

const restoreEvents = async () =>
  (await world.events('server:backup.restore-complete')).length +
  (await world.events('server:backup.restore-failed')).length;

/** Starts the world's daemon again on its configuration file; resolves once it answers. */
async function startDaemonAgain(): Promise<ChildProcess> {
  const [, ...args] = world.daemon.child.spawnargs;
  const child = spawn(process.execPath, args, {
    cwd: path.resolve(import.meta.dirname, '../../../../..'),
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  restarted.push(child);
  await waitUntil(
    'the daemon to answer again',
    () =>
      panel.ctx.services.servers.daemonClient.system(world.daemon.node).then(
        () => true,
        () => false,
      ),
    (up) => up,
    30_000,
  );
  return child;
}

async function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}

beforeAll(async () => {
  // The throttle has its own tests (client file); here backups follow each other quickly.
  world = await startServerWorld({ env: { BACKUP_THROTTLE_PERIOD: '0' } });
  ({ panel, ownerClient, server, root } = world);
  await panel.ctx.repositories.servers.update(server.id, { backup_limit: 20 });
  server = (await panel.ctx.repositories.servers.findById(server.id))!;
  configFile = world.daemon.child.spawnargs.at(-1)!;
  backupDir = path.join(path.dirname(configFile), 'backups');
  work = mkdtempSync(path.join(tmpdir(), 'talon-backup-test-'));
  writeFiles(root);
}, 120_000);

afterAll(async () => {
  for (const child of restarted) await stopProcess(child, 'SIGTERM');
  await world?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('create, download, restore', () => {
  let first: Backup;
  let archive: string;

  it('archives the server without the ignored files; the download matches the checksum', async () => {
    first = await createBackup({ name: ' World before the update ', ignored: IGNORED });
    expect(first.name).toBe('World before the update');
    expect(JSON.parse(first.ignored_files)).toEqual(['*.log', 'cache/']);
    const done = await completed(first);
    expect(done.is_successful).toBe(true);
    const bytes = await download(first);
    expect(done.checksum).toBe(`sha1:${createHash('sha1').update(bytes).digest('hex')}`);
    expect(done.bytes).toBe(bytes.length);
    archive = path.join(work, 'first.tar.gz');
    writeFileSync(archive, bytes);
    const { stdout } = await execFile('tar', ['-tzf', archive]);
    const entries = stdout
      .split('\n')
      .map((e) => e.replace(/^\.\//u, '').replace(/\/$/u, ''))
      .filter(Boolean);
    for (const name of KEPT) expect(entries).toContain(name);
    expect(entries.filter((e) => e.includes('latest.log') || e.startsWith('cache'))).toEqual([]);
    const out = mkdtempSync(path.join(work, 'x-'));
    await execFile('tar', ['-xzf', archive, '-C', out]);
    for (const name of KEPT)
      expect(readFileSync(path.join(out, name))).toEqual(Buffer.from(FILES[name]!.content));
    expect(await world.events('server:backup.start')).toContainEqual({
      name: 'World before the update',
      locked: false,
    });
    expect(await world.events('server:backup.complete')).toEqual([{ name: 'World before the update' }]);
  });

  it('the default name is "Backup at …" and a signed URL serves once', async () => {
    const b = await createBackup();
    expect(b.name).toMatch(/^Backup at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/u);
    await completed(b);
    const url = (await ownerClient.get(`${base()}/${b.uuid}/download`)).body.attributes.url as string;
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(url)).status).not.toBe(200);
  });

  it('restores without truncating: the archived files come back exactly, others stay', async () => {
    const before = Object.fromEntries(KEPT.map((n) => [n, snapshot(path.join(root, n))]));
    writeFileSync(path.join(root, 'server.properties'), 'motd=changed\n');
    chmodSync(path.join(root, 'bin/start.sh'), 0o600);
    unlinkSync(path.join(root, 'world/region/r.0.0.mca'));
    writeFileSync(path.join(root, 'extra.txt'), 'made after the backup\n');
    const statuses: (string | null | undefined)[] = [];
    const spy = vi.spyOn(panel.ctx.repositories.servers, 'update');
    const seen = await restoreEvents();
    try {
      const res = await ownerClient.post(`${base()}/${first.uuid}/restore`, { truncate: false });
      expect(res.status, res.text).toBe(204);
      await waitUntil('the restore report', restoreEvents, (n) => n > seen);
      for (const [id, values] of spy.mock.calls)
        if (id === server.id && 'status' in values) statuses.push(values.status);
    } finally {
      spy.mockRestore();
    }
    expect(statuses).toEqual(['restoring_backup', null]);
    expect(await world.events('server:backup.restore-complete')).toHaveLength(1);
    for (const name of KEPT) expect(snapshot(path.join(root, name))).toEqual(before[name]);
    expect(readFileSync(path.join(root, 'extra.txt'), 'utf8')).toBe('made after the backup\n');
    const details = await ownerClient.get(`/api/client/servers/${server.uuid_short}`);
    expect(details.body.attributes.status).toBeNull();
  });

  it('restores with truncate: only the archive’s files remain', async () => {
    const seen = await restoreEvents();
    const res = await ownerClient.post(`${base()}/${first.uuid}/restore`, { truncate: true });
    expect(res.status, res.text).toBe(204);
    await waitUntil('the restore report', restoreEvents, (n) => n > seen);
    expect(existsSync(path.join(root, 'extra.txt'))).toBe(false);
    expect(existsSync(path.join(root, 'logs/latest.log'))).toBe(false);
    for (const name of KEPT) {
      expect(snapshot(path.join(root, name))).toEqual({
        content: Buffer.from(FILES[name]!.content).toString('base64'),
        mode: FILES[name]!.mode,
        mtime: Math.floor(MTIME.getTime() / 1000),
      });
    }
    writeFiles(root);
  });

  it('a locked backup cannot be deleted; deleted, its archive is gone from the daemon', async () => {
    expect((await ownerClient.post(`${base()}/${first.uuid}/lock`)).body.attributes.is_locked).toBe(true);
    expectError(
      await ownerClient.delete(`${base()}/${first.uuid}`),
      400,
      'BackupLockedException',
      'Cannot delete a backup that is marked as locked.',
    );
    expect(existsSync(path.join(backupDir, `${first.uuid}.tar.gz`))).toBe(true);
    expect((await ownerClient.post(`${base()}/${first.uuid}/lock`)).body.attributes.is_locked).toBe(false);
    const url = (await ownerClient.get(`${base()}/${first.uuid}/download`)).body.attributes.url as string;
    expect((await ownerClient.delete(`${base()}/${first.uuid}`)).status).toBe(204);
    expect(existsSync(path.join(backupDir, `${first.uuid}.tar.gz`))).toBe(false);
    expect((await fetch(url)).status).toBe(404);
    expect((await ownerClient.get(`${base()}/${first.uuid}`)).status).toBe(404);
    // Deleting it again on the daemon (already gone) is fine for a second row of the same uuid.
    expect(await world.events('server:backup.delete')).toContainEqual({
      name: 'World before the update',
      failed: false,
    });
  });
});

describe('is_locked on creation', () => {
  it('is honoured only for a caller who also holds backup.delete', async () => {
    const { client: creator } = await subuserClient(panel, server, ['websocket.connect', 'backup.create']);
    const { client: keeper } = await subuserClient(panel, server, [
      'websocket.connect',
      'backup.create',
      'backup.delete',
    ]);
    const plain = await creator.post(base(), { name: 'asked locked', is_locked: true });
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.attributes.is_locked).toBe(false);
    const locked = await keeper.post(base(), { name: 'really locked', is_locked: true });
    expect(locked.status, locked.text).toBe(200);
    expect(locked.body.attributes.is_locked).toBe(true);
    for (const r of [plain, locked]) await completed(r.body.attributes as { uuid: string });
  });
});

describe('restoring a running server', () => {
  it('the daemon stops it first; the files come back and it is left offline', async () => {
    // A tiny server that says the egg's "done" line and leaves on `stop`.
    writeFileSync(
      path.join(root, 'server.js'),
      [
        'process.stdout.write(\'Done (0.1s)! For help, type "help"\\n\');',
        'setInterval(() => {}, 1000);',
        "process.stdin.on('data', (d) => { if (String(d).includes('stop')) process.exit(0); });",
      ].join('\n'),
    );
    const b = await createBackup({ name: 'with a running server' });
    await completed(b);
    const state = async () =>
      (await ownerClient.get(`/api/client/servers/${server.uuid_short}/resources`)).body.attributes
        ?.current_state as string;
    expect(
      (await ownerClient.post(`/api/client/servers/${server.uuid_short}/power`, { signal: 'start' })).status,
    ).toBe(204);
    await waitUntil('the server to run', state, (st) => st === 'running');
    writeFileSync(path.join(root, 'server.properties'), 'motd=changed while running\n');
    const seen = await restoreEvents();
    const res = await ownerClient.post(`${base()}/${b.uuid}/restore`, { truncate: false });
    expect(res.status, res.text).toBe(204);
    await waitUntil('the restore report', restoreEvents, (n) => n > seen);
    expect(readFileSync(path.join(root, 'server.properties'), 'utf8')).toBe(
      FILES['server.properties']!.content,
    );
    // The panel caches a server's state for a moment: read until it is the daemon's.
    await waitUntil('the server to be offline', state, (st) => st === 'offline', 15_000);
    unlinkSync(path.join(root, 'server.js'));
  });
});

describe('the service schedules call', () => {
  it('rotates the oldest unlocked successful backup at the limit; a user backup is refused', async () => {
    const { server: s } = await daemonServerRow(panel, world.daemon, world.egg, world.owner.id);
    await panel.ctx.repositories.servers.update(s.id, { backup_limit: 2 });
    const limited = (await panel.ctx.repositories.servers.findById(s.id))!;
    const oldest = await createBackup({ name: 'oldest' }, limited);
    await completed(oldest, limited);
    const newer = await createBackup({ name: 'newer', is_locked: true }, limited);
    await completed(newer, limited);
    expectError(
      await ownerClient.post(base(limited), {}),
      400,
      'TooManyBackupsException',
      'Cannot create a new backup, this server has reached its limit of 2 backups.',
    );
    const rotated = await panel.ctx.services.backups.createBackup(limited, {
      name: 'nightly',
      scheduled: true,
    });
    expect((await ownerClient.get(`${base(limited)}/${oldest.uuid}`)).status).toBe(404);
    expect(existsSync(path.join(backupDir, `${oldest.uuid}.tar.gz`))).toBe(false);
    expect(await completed(rotated, limited)).toMatchObject({ is_successful: true });
    // Both left are locked now: nothing can be rotated, so the scheduled backup is refused too.
    await ownerClient.post(`${base(limited)}/${rotated.uuid}/lock`);
    await expect(
      panel.ctx.services.backups.createBackup(limited, { name: 'again', scheduled: true }),
    ).rejects.toMatchObject({ status: 400, code: 'TooManyBackupsException' });
    const list = await ownerClient.get(base(limited));
    expect(list.body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual([
      'newer',
      'nightly',
    ]);
  });
});

describe('racing requests', () => {
  it('never go past the limit: of five at once for the last two places, two win', async () => {
    const { server: s } = await daemonServerRow(panel, world.daemon, world.egg, world.owner.id);
    await panel.ctx.repositories.servers.update(s.id, { backup_limit: 2 });
    const raced = (await panel.ctx.repositories.servers.findById(s.id))!;
    // Through the service, so that every check of one request interleaves with the others'.
    const node = world.daemon.node;
    const actor = { userId: world.owner.id, apiKeyId: null, ip: '127.0.0.1' };
    const answers = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        panel.ctx.services.backups.createForUser(raced, node, ['*'], { name: `race ${i}` }, actor),
      ),
    );
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(2);
    for (const a of answers) {
      if (a.status === 'rejected')
        expect(a.reason).toMatchObject({ status: 400, code: 'TooManyBackupsException' });
    }
    const list = await ownerClient.get(base(raced));
    expect(list.body.meta.backup_count).toBe(2);
    for (const d of list.body.data as { attributes: { uuid: string } }[])
      await completed(d.attributes, raced);
  });
});

describe('server deletion', () => {
  it('removes the server’s archives from the daemon', async () => {
    const { server: s } = await daemonServerRow(panel, world.daemon, world.egg, world.owner.id);
    await panel.ctx.repositories.servers.update(s.id, { backup_limit: 3 });
    const doomed = (await panel.ctx.repositories.servers.findById(s.id))!;
    const b = await createBackup({}, doomed);
    await completed(b, doomed);
    expect(existsSync(path.join(backupDir, `${b.uuid}.tar.gz`))).toBe(true);
    await panel.ctx.services.serverManagement.delete(doomed, false, {
      userId: null,
      apiKeyId: null,
      ip: null,
    });
    expect(existsSync(path.join(backupDir, `${b.uuid}.tar.gz`))).toBe(false);
  });
});

describe('a daemon killed mid-backup', () => {
  it('leaves a backup that is failed after the prune and never served', async () => {
    // A slow backup: writes limited to 1 MiB/s and a large incompressible file.
    await stopProcess(world.daemon.child, 'SIGTERM');
    const doc = JSON.parse(readFileSync(configFile, 'utf8')) as { system: Record<string, unknown> };
    doc.system.backups = { ...(doc.system.backups as object), write_limit: 1 };
    writeFileSync(configFile, JSON.stringify(doc), { mode: 0o600 });
    let daemon = await startDaemonAgain();
    writeFileSync(path.join(root, 'big.bin'), randomBytes(12 * 1024 * 1024));

    // Deleted while it runs (allowed): the daemon's late report finds no backup, so it removes the
    // archive it just finished, and nothing is left behind.
    const dropped = await createBackup({ name: 'deleted while running' });
    const droppedPart = path.join(backupDir, `${dropped.uuid}.tar.gz.part`);
    await waitUntil(
      'the partial archive',
      async () => existsSync(droppedPart),
      (seen) => seen,
      60_000,
      20,
    );
    expect((await ownerClient.delete(`${base()}/${dropped.uuid}`)).status).toBe(204);
    await waitUntil(
      'the finished archive to be removed',
      async () => readdirSync(backupDir).filter((n) => n.startsWith(dropped.uuid)),
      (left) => left.length === 0,
      120_000,
    );

    const b = await createBackup({ name: 'interrupted' });
    const part = path.join(backupDir, `${b.uuid}.tar.gz.part`);
    await waitUntil(
      'the partial archive',
      async () => (existsSync(part) ? statSync(part).size : 0),
      (n) => n > 0,
      60_000,
      20,
    );
    await stopProcess(daemon, 'SIGKILL');
    daemon = await startDaemonAgain();
    await waitUntil(
      'the partial archive to be removed',
      async () => readdirSync(backupDir).filter((n) => n.startsWith(b.uuid)),
      (left) => left.length === 0,
      30_000,
    );
    // Nothing was reported: the panel still sees it running until the prune.
    expect((await ownerClient.get(`${base()}/${b.uuid}`)).body.attributes.completed_at).toBeNull();
    await pruneBackups(
      panel.ctx,
      new Date(Date.now() + (panel.ctx.config.backups.pruneAgeMinutes + 1) * 60_000),
    );
    const after = await ownerClient.get(`${base()}/${b.uuid}`);
    expect(after.body.attributes).toMatchObject({ is_successful: false, checksum: null });
    expectError(
      await ownerClient.get(`${base()}/${b.uuid}/download`),
      400,
      'BadRequestHttpException',
      'This backup cannot be downloaded at this time: not completed or failed.',
    );
    // Even a correctly signed URL finds nothing on the daemon.
    const node = world.daemon.node;
    const token = await signDaemonToken(
      {
        scope: 'backup-download',
        seconds: 60,
        key: panel.ctx.services.servers.daemonClient.token(node),
      },
      { server_uuid: server.uuid, backup_uuid: b.uuid, unique_id: 'killed-backup-1' },
    );
    expect((await fetch(`${nodeUrl(node)}/download/backup?token=${token}`)).status).toBe(404);
    unlinkSync(path.join(root, 'big.bin'));
  }, 180_000);
});
