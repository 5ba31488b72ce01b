import { clientScheduleItemSchema } from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../../db/types.ts';
import { ScheduleRunner } from '../../jobs/schedule-runner.ts';
import { expectError, type TestClient } from '../../test-support/client.ts';
import { startRunningServer, startServerWorld, type ServerWorld } from '../../test-support/daemon-servers.ts';
import { subuserClient } from '../../test-support/fixtures.ts';
import type { SocketMessage, TestSocket } from '../../test-support/socket.ts';

// CVE-2026-86177: a subuser with only `schedule.update` saved tasks that ran commands, power
// actions or backups. A task's action needs its own permission when it is saved (403) and, for
// the user who saved it, again when it runs (else it is skipped, with an activity entry saying
// why). The server owner's tasks always run. Against a real daemon running the built-in game egg,
// whose console echoes `say` commands.
let world: ServerWorld;
let running: Server;
let socket: TestSocket;
let runner: ScheduleRunner;

const SCHEDULE_ONLY = ['schedule.read', 'schedule.create', 'schedule.update'];
const url = (rest = '') => `/api/client/servers/${running.uuid_short}/schedules${rest}`;
const word = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 8)}`;
const said = (text: string) => (m: SocketMessage) =>
  m.event === 'console output' && (m.args?.[0] ?? '').includes(text);
const FORBIDDEN = ['AccessDeniedHttpException', 'This action is unauthorized.'] as const;

async function newSchedule(client: TestClient = world.ownerClient): Promise<number> {
  const res = await client.post(url(), {
    name: 'Permissions',
    is_active: false,
    minute: '0',
    hour: '0',
    day_of_month: '1',
    month: '1',
    day_of_week: '*',
  });
  expect(res.status, res.text).toBe(200);
  return clientScheduleItemSchema.parse(res.body).attributes.id;
}

const taskCount = async (id: number) =>
  (await world.panel.ctx.db.db.selectFrom('tasks').select('id').where('schedule_id', '=', id).execute())
    .length;

beforeAll(async () => {
  world = await startServerWorld();
  ({ server: running, socket } = await startRunningServer(world, 'Task permissions'));
  const { panel } = world;
  // Backup tasks are refused outright on a server whose backup limit is 0.
  await panel.ctx.repositories.servers.update(running.id, { backup_limit: 1 });
  runner = new ScheduleRunner(panel.ctx, { tickMs: 500, leaseMs: 10_000 });
  runner.start();
}, 240_000);

afterAll(async () => {
  await runner?.stop();
  socket?.ws.close();
  await world?.close();
});

describe('a task needs the permission of its action (CVE-2026-86177)', () => {
  it('saving: schedule.update alone may not add or change a command, power or backup task (403, nothing stored)', async () => {
    const { client } = await subuserClient(world.panel, running, SCHEDULE_ONLY);
    const id = await newSchedule(client);
    for (const task of [
      { action: 'command', payload: 'say hi' },
      { action: 'power', payload: 'start' },
      { action: 'power', payload: 'kill' },
      { action: 'backup', payload: '' },
    ]) {
      expectError(await client.post(url(`/${id}/tasks`), { time_offset: 0, ...task }), 403, ...FORBIDDEN);
    }
    expect(await taskCount(id)).toBe(0);
    // An owner's command task may not be turned into a power action by them either.
    const added = await world.ownerClient.post(url(`/${id}/tasks`), {
      action: 'command',
      payload: 'say x',
      time_offset: 0,
    });
    expect(added.status, added.text).toBe(200);
    const taskId = added.body.attributes.id as number;
    expectError(
      await client.post(url(`/${id}/tasks/${taskId}`), { action: 'power', payload: 'stop', time_offset: 0 }),
      403,
      ...FORBIDDEN,
    );
    const stored = await world.panel.ctx.db.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    expect([stored.action, stored.payload]).toEqual(['command', 'say x']);
  });

  it('saving: each action with its own permission (control.console, control.start, control.stop for kill, backup.create)', async () => {
    const { client } = await subuserClient(world.panel, running, [
      ...SCHEDULE_ONLY,
      'control.console',
      'control.start',
      'backup.create',
    ]);
    const id = await newSchedule(client);
    const post = (task: Record<string, unknown>) =>
      client.post(url(`/${id}/tasks`), { time_offset: 0, ...task });
    expect((await post({ action: 'command', payload: 'say hi' })).status).toBe(200);
    expect((await post({ action: 'power', payload: 'start' })).status).toBe(200);
    expect((await post({ action: 'backup', payload: '' })).status).toBe(200);
    expectError(await post({ action: 'power', payload: 'restart' }), 403, ...FORBIDDEN);
    expectError(await post({ action: 'power', payload: 'kill' }), 403, ...FORBIDDEN);
    expect(await taskCount(id)).toBe(3);
  });

  it("running: a subuser's command task is skipped once they lost control.console (activity says why); the owner's task runs", async () => {
    const { user, client } = await subuserClient(world.panel, running, [...SCHEDULE_ONLY, 'control.console']);
    const id = await newSchedule(client);
    const [theirs, owners] = [word('theirs'), word('owners')];
    const saved = await client.post(url(`/${id}/tasks`), {
      action: 'command',
      payload: `say ${theirs}`,
      time_offset: 0,
      continue_on_failure: true,
    });
    expect(saved.status, saved.text).toBe(200);
    const ownerTask = await world.ownerClient.post(url(`/${id}/tasks`), {
      action: 'command',
      payload: `say ${owners}`,
      time_offset: 0,
    });
    expect(ownerTask.status, ownerTask.text).toBe(200);
    await world.panel.ctx.db.db
      .updateTable('subusers')
      .set({ permissions: JSON.stringify(SCHEDULE_ONLY) })
      .where('user_id', '=', user.id)
      .execute();
    const from = socket.mark();
    expect((await world.ownerClient.post(url(`/${id}/execute`))).status).toBe(202);
    // Tasks run in order: once the owner's (second) command is echoed, the first had its turn.
    await socket.waitFor(said(owners), 30_000, from);
    expect(socket.messages.slice(from).some(said(theirs))).toBe(false);
    const skipped = (await world.events('server:task.skipped')) as { payload: string; reason: string }[];
    expect(skipped).toContainEqual(
      expect.objectContaining({
        payload: `say ${theirs}`,
        reason: `the user who saved the task (${user.username}) no longer has control.console on this server`,
      }),
    );
  }, 60_000);
});
