import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clientScheduleItemSchema } from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../../db/types.ts';
import { ScheduleRunner } from '../../jobs/schedule-runner.ts';
import {
  startRunningServer,
  startServerWorld,
  waitUntil,
  type ServerWorld,
} from '../../test-support/daemon-servers.ts';
import { freePort } from '../../test-support/daemon.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import type { SocketMessage, TestSocket } from '../../test-support/socket.ts';

// The schedule runner against a real daemon (issue 15): a running server of the built-in game
// egg echoes `say` commands on its console, which is how runs are seen and counted. A second
// panel on the same database runs its own runner for the exactly-once checks.
let world: ServerWorld;
let running: Server;
let socket: TestSocket;
let runner: ScheduleRunner;
let other: TestPanel;
let otherRunner: ScheduleRunner | null = null;

const url = (s: Pick<Server, 'uuid_short'>, rest = '') =>
  `/api/client/servers/${s.uuid_short}/schedules${rest}`;
const word = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 8)}`;
const said = (text: string) => (m: SocketMessage) =>
  m.event === 'console output' && (m.args?.[0] ?? '').includes(text);
const count = (text: string) => socket.messages.filter(said(text)).length;

async function schedule(s: Server, body: Record<string, unknown>, tasks: Record<string, unknown>[]) {
  const res = await world.ownerClient.post(url(s), {
    name: 'Test',
    is_active: true,
    only_when_online: false,
    minute: '0',
    hour: '0',
    day_of_month: '1',
    month: '1',
    day_of_week: '*',
    ...body,
  });
  expect(res.status, res.text).toBe(200);
  const { id } = clientScheduleItemSchema.parse(res.body).attributes;
  for (const t of tasks) {
    const added = await world.ownerClient.post(url(s, `/${id}/tasks`), { time_offset: 0, ...t });
    expect(added.status, added.text).toBe(200);
  }
  return id;
}

const row = (id: number) =>
  world.panel.ctx.db.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Waits until the run asked for (Run Now or due) has been claimed and has ended. */
const ended = (id: number, ms = 60_000) =>
  waitUntil(
    'the run to end',
    () => row(id),
    (r) => r.run_now === 0 && r.claim_token === null && (r.next_run_at ?? '') > new Date().toISOString(),
    ms,
  );

/**
 * Sends a marker over HTTP and waits for its echo: the server reads its input in order, so every
 * command sent before it has been echoed by then (counts read after this are final).
 */
async function settled(): Promise<void> {
  const marker = word('marker');
  const from = socket.mark();
  expect(
    (
      await world.ownerClient.post(`/api/client/servers/${running.uuid_short}/command`, {
        command: `say ${marker}`,
      })
    ).status,
  ).toBe(204);
  await socket.waitFor(said(marker), 30_000, from);
}

beforeAll(async () => {
  world = await startServerWorld({ env: { BACKUP_THROTTLE_PERIOD: '0' } });
  ({ server: running, socket } = await startRunningServer(world, 'Scheduled world'));
  const { panel } = world;
  await panel.ctx.repositories.servers.update(world.server.id, { backup_limit: 1 });
  runner = new ScheduleRunner(panel.ctx, { tickMs: 500, leaseMs: 10_000 });
  runner.start();
  // The same database and app key: the second panel decrypts the node's daemon token too.
  other = await startTestPanel({
    DATABASE_URL: panel.ctx.config.databaseUrl,
    APP_KEY: panel.ctx.config.appKey.toString('hex'),
  });
}, 240_000);

afterAll(async () => {
  await runner?.stop();
  await otherRunner?.stop();
  socket?.ws.close();
  await other?.close();
  await world?.close();
});

describe('the schedule runner', () => {
  it('runs a `* * * * *` schedule: its command reaches the console within a minute and 15 s', async () => {
    const text = word('cron');
    const id = await schedule(running, { minute: '*', hour: '*', day_of_month: '*', month: '*' }, [
      { action: 'command', payload: `say ${text}` },
    ]);
    await socket.waitFor(said(text), 75_000);
    const after = await waitUntil(
      'last_run_at',
      () => row(id),
      (r) => r.last_run_at !== null && r.is_processing === 0,
    );
    expect(after.next_run_at! > after.last_run_at!).toBe(true);
    await world.ownerClient.post(url(running, `/${id}`), {
      name: 'Test',
      is_active: false,
      minute: '*',
      hour: '*',
      day_of_month: '*',
      month: '*',
      day_of_week: '*',
    });
  }, 120_000);

  it('Run Now runs at once, active or not, tasks in order each after its offset', async () => {
    const [a, b, c] = [word('first'), word('second'), word('third')];
    // Added out of order: c is appended, then a is put first, b between.
    const id = await schedule(running, { is_active: false }, [
      { action: 'command', payload: `say ${c}`, time_offset: 1 },
      { action: 'command', payload: `say ${a}`, sequence_id: 1 },
      { action: 'command', payload: `say ${b}`, time_offset: 1, sequence_id: 2 },
    ]);
    const from = socket.mark();
    expect((await world.ownerClient.post(url(running, `/${id}/execute`))).status).toBe(202);
    const seen = new Map<string, number>();
    for (const t of [a, b, c]) {
      await socket.waitFor(said(t), 30_000, from);
      seen.set(t, Date.now());
    }
    const index = (t: string) => socket.messages.findIndex(said(t));
    expect(index(a)).toBeLessThan(index(b));
    expect(index(b)).toBeLessThan(index(c));
    // Each waited at least its offset after the previous one.
    expect(seen.get(c)! - seen.get(a)!).toBeGreaterThanOrEqual(1500);
    const done = await waitUntil(
      'the run to end',
      () => row(id),
      (r) => r.last_run_at !== null && r.is_processing === 0,
    );
    expect(done.is_active).toBe(0);
    await settled();
    expect([a, b, c].map(count)).toEqual([1, 1, 1]);
  }, 60_000);

  it('only_when_online: a server that is not running gets nothing, the run ends without last_run_at', async () => {
    const id = await schedule(world.server, { only_when_online: true, is_active: false }, [
      { action: 'backup', payload: '' },
    ]);
    expect((await world.ownerClient.post(url(world.server, `/${id}/execute`))).status).toBe(202);
    const after = await ended(id);
    expect(after.last_run_at).toBeNull();
    expect(after.is_processing).toBe(0);
    const backups = await world.panel.ctx.db.db
      .selectFrom('backups')
      .select('id')
      .where('server_id', '=', world.server.id)
      .execute();
    expect(backups).toEqual([]);
  }, 60_000);

  it('a failed task stops the chain; with continue_on_failure the next one runs (a backup)', async () => {
    // The server is offline: the command fails (the daemon refuses it), the backup would work.
    const stop = await schedule(world.server, { is_active: false }, [
      { action: 'command', payload: 'say nobody' },
      { action: 'backup', payload: '' },
    ]);
    expect((await world.ownerClient.post(url(world.server, `/${stop}/execute`))).status).toBe(202);
    expect((await ended(stop)).last_run_at).not.toBeNull();
    const db = world.panel.ctx.db.db;
    const backupsOf = () =>
      db
        .selectFrom('backups')
        .selectAll()
        .where('server_id', '=', world.server.id)
        .where('deleted_at', 'is', null)
        .execute();
    expect(await backupsOf()).toEqual([]);
    const carryOn = await schedule(world.server, { is_active: false }, [
      { action: 'command', payload: 'say nobody', continue_on_failure: true },
      { action: 'backup', payload: '' },
    ]);
    expect((await world.ownerClient.post(url(world.server, `/${carryOn}/execute`))).status).toBe(202);
    await ended(carryOn);
    const first = await waitUntil(
      'a finished backup',
      backupsOf,
      (rows) => rows.length === 1 && rows[0]!.completed_at !== null,
    );
    expect(first[0]!.is_successful).toBe(1);
    // At the limit (1) the next scheduled backup rotates the oldest unlocked one out.
    expect((await world.ownerClient.post(url(world.server, `/${carryOn}/execute`))).status).toBe(202);
    await ended(carryOn);
    const second = await waitUntil(
      'the rotated backup',
      backupsOf,
      (rows) => rows.length === 1 && rows[0]!.id !== first[0]!.id && rows[0]!.completed_at !== null,
    );
    expect(second[0]!.is_successful).toBe(1);
    expect(await world.events('server:backup.delete')).toContainEqual(
      expect.objectContaining({ rotated: true }),
    );
    expect(await world.events('server:backup.start')).toContainEqual(
      expect.objectContaining({ scheduled: true }),
    );
  }, 120_000);

  it('a task fails while the server is in a conflict state (nothing is sent)', async () => {
    const text = word('conflict');
    const id = await schedule(running, { is_active: false }, [{ action: 'command', payload: `say ${text}` }]);
    await world.panel.ctx.repositories.servers.update(running.id, { status: 'restoring_backup' });
    try {
      await world.panel.ctx.repositories.schedules.requestRun(id, null, new Date().toISOString());
      await runner.tick();
      await waitUntil(
        'the run to end',
        () => row(id),
        (r) => r.run_now === 0 && r.claim_token === null,
      );
    } finally {
      await world.panel.ctx.repositories.servers.update(running.id, { status: null });
    }
    await settled();
    expect(count(text)).toBe(0);
  }, 60_000);

  it('two panels on one database: each due schedule runs exactly once; a missed run runs once', async () => {
    otherRunner = new ScheduleRunner(other.ctx, { tickMs: 200, leaseMs: 10_000 });
    otherRunner.start();
    const texts = Array.from({ length: 20 }, (_, i) => word(`once${i}x`));
    const ids: number[] = [];
    for (const t of texts)
      ids.push(
        await schedule(running, { minute: '0', hour: '*' }, [{ action: 'command', payload: `say ${t}` }]),
      );
    // Due for an hour: as if every panel had been down since.
    const past = new Date(Date.now() - 3600_000).toISOString();
    await world.panel.ctx.db.db
      .updateTable('schedules')
      .set({ next_run_at: past })
      .where('id', 'in', ids)
      .execute();
    for (const id of ids) await ended(id);
    await settled();
    expect(texts.map(count)).toEqual(texts.map(() => 1));
    for (const id of ids) {
      const r = await row(id);
      expect(r.last_run_at).not.toBeNull();
      expect(Date.parse(r.next_run_at!)).toBeGreaterThan(Date.parse(r.last_run_at!) - 1000);
    }
    await otherRunner.stop();
    otherRunner = null;
  }, 120_000);

  it('a panel dying mid-chain: its lease runs out and the remaining tasks run once elsewhere', async () => {
    await runner.stop();
    const [a, b, c] = [word('before'), word('after'), word('last')];
    const id = await schedule(running, { is_active: false }, [
      { action: 'command', payload: `say ${a}` },
      { action: 'command', payload: `say ${b}`, time_offset: 3 },
      { action: 'command', payload: `say ${c}` },
    ]);
    await world.panel.ctx.repositories.schedules.requestRun(id, null, new Date().toISOString());
    const dying = new ScheduleRunner(other.ctx, { tickMs: 60_000, leaseMs: 1500 });
    expect(await dying.tick()).toBe(1);
    await socket.waitFor(said(a), 30_000);
    await dying.stop({ abrupt: true });
    expect((await row(id)).claim_token).toBe(dying.token);
    const survivor = new ScheduleRunner(world.panel.ctx, { tickMs: 60_000, leaseMs: 10_000 });
    await waitUntil(
      'the survivor to take the run over',
      () => survivor.tick(),
      (n) => n === 1,
      30_000,
      200,
    );
    await survivor.idle();
    const done = await row(id);
    expect(done.claim_token).toBeNull();
    expect(done.last_run_at).not.toBeNull();
    await settled();
    expect([a, b, c].map(count)).toEqual([1, 1, 1]);
    await survivor.stop();
  }, 90_000);

  it('a real panel process killed mid-chain (SIGKILL): the remaining tasks run once, by the survivor', async () => {
    await runner.stop();
    const [a, b, c] = [word('killed'), word('resumed'), word('finished')];
    const id = await schedule(running, { is_active: false }, [
      { action: 'command', payload: `say ${a}` },
      { action: 'command', payload: `say ${b}`, time_offset: 4 },
      { action: 'command', payload: `say ${c}` },
    ]);
    // The panel's own entry point (main.ts starts the runner), on the same database and key.
    const dir = mkdtempSync(path.join(tmpdir(), 'talon-schedules-'));
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/panel/src/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '../../../../..'),
      env: {
        ...process.env,
        DATA_DIR: dir,
        DATABASE_URL: world.panel.ctx.config.databaseUrl,
        APP_KEY: world.panel.ctx.config.appKey.toString('hex'),
        LOCAL_DAEMON: 'false',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        SCHEDULE_TICK_SECONDS: '0.5',
        SCHEDULE_LEASE_SECONDS: '5',
      },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await waitUntil(
        'the panel process to listen',
        async () => output,
        (o) => o.includes('Panel listening on'),
        60_000,
      );
      await world.panel.ctx.repositories.schedules.requestRun(id, null, new Date().toISOString());
      await socket.waitFor(said(a), 30_000);
      child.kill('SIGKILL');
      await exited;
      const held = await row(id);
      expect(held.claim_token).not.toBeNull();
      expect(held.run_position).toBe(1);
      const survivor = new ScheduleRunner(world.panel.ctx, { tickMs: 60_000, leaseMs: 10_000 });
      await waitUntil(
        'the survivor to take the run over',
        () => survivor.tick(),
        (n) => n === 1,
        30_000,
        200,
      );
      await survivor.idle();
      await survivor.stop();
      expect((await row(id)).claim_token).toBeNull();
      await settled();
      expect([a, b, c].map(count)).toEqual([1, 1, 1]);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
