import {
  clientScheduleItemSchema,
  clientScheduleListSchema,
  clientScheduleTaskItemSchema,
} from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import { expectError, type Res, type TestClient } from '../../test-support/client.ts';
import { activityAbout, nodeAndEgg, serverRow, subuserClient } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// The schedule API on the panel alone (reference §3.3 "Schedules and tasks"): rules, messages,
// positions, permissions and scoping. Running schedules is in the runner tests.
let panel: TestPanel;
let node: Node;
let egg: Egg;
let owner: User;
let ownerClient: TestClient;
let strangerClient: TestClient;

const NOT_FOUND = [
  'NotFoundHttpException',
  'The requested resource could not be found on the server.',
] as const;
const base = (s: Pick<Server, 'uuid_short'>) => `/api/client/servers/${s.uuid_short}/schedules`;
const newServer = (values: Partial<Server> = {}) =>
  serverRow(panel.ctx, node, egg, owner.id, { backup_limit: 2, ...values });
const BODY = {
  name: 'Nightly',
  is_active: true,
  only_when_online: false,
  minute: '*/5',
  hour: '*',
  day_of_month: '*',
  month: '*',
  day_of_week: '*',
};

const failures = (res: Res) => {
  expect(res.status, res.text).toBe(422);
  return (res.body.errors as { detail: string; meta: { source_field: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.detail}`,
  );
};

async function newSchedule(s: Server, body: Record<string, unknown> = {}) {
  const res = await ownerClient.post(base(s), { ...BODY, ...body });
  expect(res.status, res.text).toBe(200);
  return clientScheduleItemSchema.parse(res.body).attributes;
}

async function addTask(s: Server, scheduleId: number, body: Record<string, unknown> = {}) {
  const res = await ownerClient.post(`${base(s)}/${scheduleId}/tasks`, {
    action: 'command',
    payload: 'say hi',
    time_offset: 0,
    ...body,
  });
  expect(res.status, res.text).toBe(200);
  return clientScheduleTaskItemSchema.parse(res.body).attributes;
}

async function order(s: Server, scheduleId: number): Promise<string[]> {
  const res = await ownerClient.get(`${base(s)}/${scheduleId}`);
  return clientScheduleItemSchema
    .parse(res.body)
    .attributes.relationships.tasks.data.map((t) => `${t.attributes.sequence_id}:${t.attributes.payload}`);
}

beforeAll(async () => {
  panel = await startTestPanel({ APP_TIMEZONE: 'Europe/Berlin', PTERODACTYL_PER_SCHEDULE_TASK_LIMIT: '3' });
  ({ node, egg } = await nodeAndEgg(panel.ctx, [46400, 46449]));
  owner = await panel.createUser();
  ownerClient = await panel.signedIn(owner);
  strangerClient = await panel.signedIn(await panel.createUser());
});
afterAll(async () => {
  await panel?.close();
});

describe('schedules', () => {
  it('creates a schedule with next_run_at from the cron, lists and gets it with its tasks', async () => {
    const s = await newServer();
    const before = Date.now();
    const created = await newSchedule(s, { minute: '30', hour: '3' });
    expect(created).toMatchObject({
      name: 'Nightly',
      cron: { minute: '30', hour: '3', day_of_month: '*', month: '*', day_of_week: '*' },
      is_active: true,
      is_processing: false,
      only_when_online: false,
      last_run_at: null,
      relationships: { tasks: { object: 'list', data: [] } },
    });
    // 03:30 in Berlin (APP_TIMEZONE) is 01:30 or 02:30 UTC, within the next day.
    const next = Date.parse(created.next_run_at!);
    expect(next).toBeGreaterThan(before);
    expect(next - before).toBeLessThanOrEqual(24 * 3600_000);
    expect(new Date(next).getUTCMinutes()).toBe(30);
    expect([1, 2]).toContain(new Date(next).getUTCHours());
    const task = await addTask(s, created.id);
    const list = clientScheduleListSchema.parse((await ownerClient.get(base(s))).body);
    expect(list.data.map((d) => d.attributes.id)).toEqual([created.id]);
    expect(list.data[0]!.attributes.relationships.tasks.data[0]!.attributes).toMatchObject({
      id: task.id,
      sequence_id: 1,
      action: 'command',
      payload: 'say hi',
      time_offset: 0,
      is_queued: false,
      continue_on_failure: false,
    });
    const one = clientScheduleItemSchema.parse((await ownerClient.get(`${base(s)}/${created.id}`)).body);
    expect(one.attributes.relationships.tasks.data).toHaveLength(1);
    const events = await activityAbout(panel.ctx, { type: 'schedule', id: created.id });
    expect(events.map((e) => e.event)).toEqual(['server:schedule.create', 'server:task.create']);
  });

  it('refuses an invalid cron with 400 and the reference message, and creates nothing', async () => {
    const s = await newServer();
    for (const bad of [
      { minute: '61' },
      { hour: 'x' },
      { day_of_month: '31', month: '2' },
      { minute: '* *' },
    ]) {
      expectError(
        await ownerClient.post(base(s), { ...BODY, ...bad }),
        400,
        'DisplayException',
        'The cron data provided does not evaluate to a valid expression.',
      );
    }
    expect((await ownerClient.get(base(s))).body.data).toEqual([]);
  });

  it('validates the body with the reference messages (422)', async () => {
    const s = await newServer();
    expect(failures(await ownerClient.post(base(s), {}))).toEqual([
      'name|The name field is required.',
      'minute|The minute field is required.',
      'hour|The hour field is required.',
      'day_of_month|The day of month field is required.',
      'day_of_week|The day of week field is required.',
    ]);
    expect(
      failures(await ownerClient.post(base(s), { ...BODY, name: 'x'.repeat(192), is_active: 'yes' })),
    ).toEqual([
      'name|The name may not be greater than 191 characters.',
      'is_active|The is active field must be true or false.',
    ]);
    expect(
      failures(await ownerClient.post(base(s), { ...BODY, only_when_online: 'maybe', month: 5 })),
    ).toEqual([
      'only_when_online|The only when online field must be true or false.',
      'month|The month must be a string.',
    ]);
  });

  it('stores a missing is_active as active and a missing month as * (reference quirks fixed)', async () => {
    const s = await newServer();
    const { is_active: _a, month: _m, ...rest } = BODY;
    const created = await newSchedule(s, {});
    const res = await ownerClient.post(base(s), rest);
    expect(res.status, res.text).toBe(200);
    const attrs = clientScheduleItemSchema.parse(res.body).attributes;
    expect(attrs.is_active).toBe(true);
    expect(attrs.cron.month).toBe('*');
    expect(created.is_active).toBe(true);
  });

  it('updates a schedule; changing is_active resets is_processing', async () => {
    const s = await newServer();
    const created = await newSchedule(s);
    await panel.ctx.db.db
      .updateTable('schedules')
      .set({ is_processing: 1 })
      .where('id', '=', created.id)
      .execute();
    const same = await ownerClient.post(`${base(s)}/${created.id}`, { ...BODY, name: 'Renamed' });
    expect(same.status, same.text).toBe(200);
    expect(same.body.attributes).toMatchObject({ name: 'Renamed', is_processing: true });
    const off = await ownerClient.post(`${base(s)}/${created.id}`, {
      ...BODY,
      is_active: false,
      minute: '0',
    });
    expect(off.body.attributes).toMatchObject({
      is_active: false,
      is_processing: false,
      cron: { minute: '0' },
    });
    expect(new Date(off.body.attributes.next_run_at as string).getUTCMinutes()).toBe(0);
    expectError(
      await ownerClient.post(`${base(s)}/${created.id}`, { ...BODY, minute: '99' }),
      400,
      'DisplayException',
      'The cron data provided does not evaluate to a valid expression.',
    );
    const events = await activityAbout(panel.ctx, { type: 'schedule', id: created.id });
    expect(events.map((e) => e.event)).toEqual([
      'server:schedule.create',
      'server:schedule.update',
      'server:schedule.update',
    ]);
  });

  it('deletes a schedule and its tasks (204)', async () => {
    const s = await newServer();
    const created = await newSchedule(s);
    await addTask(s, created.id);
    const res = await ownerClient.delete(`${base(s)}/${created.id}`);
    expect(res.status, res.text).toBe(204);
    expect((await ownerClient.get(`${base(s)}/${created.id}`)).status).toBe(404);
    const left = await panel.ctx.db.db
      .selectFrom('tasks')
      .selectAll()
      .where('schedule_id', '=', created.id)
      .execute();
    expect(left).toEqual([]);
    const events = await activityAbout(panel.ctx, { type: 'schedule', id: created.id });
    expect(events.map((e) => e.event)).toContain('server:schedule.delete');
  });

  it('Run Now: 400 without tasks, 202 with tasks (the run is requested, next_run_at moves on)', async () => {
    const s = await newServer();
    const created = await newSchedule(s, { is_active: false });
    expectError(
      await ownerClient.post(`${base(s)}/${created.id}/execute`),
      400,
      'DisplayException',
      'Cannot process schedule for task execution: no tasks are registered.',
    );
    await addTask(s, created.id);
    const res = await ownerClient.post(`${base(s)}/${created.id}/execute`);
    expect(res.status, res.text).toBe(202);
    expect(res.text).toBe('');
    const row = await panel.ctx.repositories.schedules.byId(created.id);
    expect(row?.run_now).toBe(1);
    const events = await activityAbout(panel.ctx, { type: 'schedule', id: created.id });
    expect(events.map((e) => e.event)).toContain('server:schedule.execute');
  });
});

describe('tasks', () => {
  it('validates task bodies (422) with the reference messages', async () => {
    const s = await newServer();
    const { id } = await newSchedule(s);
    expect(failures(await ownerClient.post(`${base(s)}/${id}/tasks`, {}))).toEqual([
      'action|The action field is required.',
      'payload|The payload field is required unless action is in backup.',
      'time_offset|The time offset field is required.',
    ]);
    expect(
      failures(
        await ownerClient.post(`${base(s)}/${id}/tasks`, {
          action: 'reboot',
          payload: 'x',
          time_offset: 901,
          sequence_id: 0,
          continue_on_failure: 'maybe',
        }),
      ),
    ).toEqual([
      'action|The selected action is invalid.',
      'time_offset|The time offset must be between 0 and 900.',
      'sequence_id|The sequence id must be at least 1.',
      'continue_on_failure|The continue on failure field must be true or false.',
    ]);
    // A backup task needs no payload; a null payload is stored as "".
    const backup = await addTask(s, id, { action: 'backup', payload: null, time_offset: 900 });
    expect(backup).toMatchObject({ action: 'backup', payload: '', time_offset: 900 });
  });

  it('enforces the task limit (400 ServiceLimitExceededException)', async () => {
    const s = await newServer();
    const { id } = await newSchedule(s);
    for (let i = 0; i < 3; i++) await addTask(s, id, { payload: `say ${i}` });
    expectError(
      await ownerClient.post(`${base(s)}/${id}/tasks`, { action: 'command', payload: 'x', time_offset: 0 }),
      400,
      'ServiceLimitExceededException',
      'Schedules may not have more than 3 tasks associated with them. Creating this task would put this schedule over the limit.',
    );
    expect(await order(s, id)).toEqual(['1:say 0', '2:say 1', '3:say 2']);
  });

  it('refuses a backup task when the backup limit is 0 (403), on create and update', async () => {
    const s = await newServer({ backup_limit: 0 });
    const { id } = await newSchedule(s);
    const refused = "A backup task cannot be created when the server's backup limit is set to 0.";
    expectError(
      await ownerClient.post(`${base(s)}/${id}/tasks`, { action: 'backup', time_offset: 0 }),
      403,
      'HttpForbiddenException',
      refused,
    );
    const task = await addTask(s, id);
    expectError(
      await ownerClient.post(`${base(s)}/${id}/tasks/${task.id}`, { action: 'backup', time_offset: 0 }),
      403,
      'HttpForbiddenException',
      refused,
    );
    expect(await order(s, id)).toEqual(['1:say hi']);
  });

  it('inserts at a requested position and shifts; moves up and down; deletes and closes the gap', async () => {
    const s = await newServer();
    const { id } = await newSchedule(s);
    const a = await addTask(s, id, { payload: 'a' });
    await addTask(s, id, { payload: 'b', sequence_id: 9 });
    const c = await addTask(s, id, { payload: 'c', sequence_id: 1 });
    expect(c.sequence_id).toBe(1);
    expect(await order(s, id)).toEqual(['1:c', '2:a', '3:b']);
    // Move c down to 3: (1, 3] shift down.
    let res = await ownerClient.post(`${base(s)}/${id}/tasks/${c.id}`, {
      action: 'command',
      payload: 'c',
      time_offset: 5,
      sequence_id: 3,
      continue_on_failure: true,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes).toMatchObject({ sequence_id: 3, time_offset: 5, continue_on_failure: true });
    expect(await order(s, id)).toEqual(['1:a', '2:b', '3:c']);
    // Move c up to 1: [1, 3) shift up. No sequence_id keeps the position.
    res = await ownerClient.post(`${base(s)}/${id}/tasks/${c.id}`, {
      action: 'command',
      payload: 'c',
      time_offset: 0,
      sequence_id: 1,
    });
    expect(await order(s, id)).toEqual(['1:c', '2:a', '3:b']);
    res = await ownerClient.post(`${base(s)}/${id}/tasks/${a.id}`, {
      action: 'command',
      payload: 'A',
      time_offset: 0,
    });
    expect(res.body.attributes.sequence_id).toBe(2);
    expect((await ownerClient.delete(`${base(s)}/${id}/tasks/${c.id}`)).status).toBe(204);
    expect(await order(s, id)).toEqual(['1:A', '2:b']);
    const events = (await activityAbout(panel.ctx, { type: 'schedule', id })).map((e) => e.event);
    expect(events.filter((e) => e.startsWith('server:task.'))).toEqual([
      'server:task.create',
      'server:task.create',
      'server:task.create',
      'server:task.update',
      'server:task.update',
      'server:task.update',
      'server:task.delete',
    ]);
  });
});

describe('access', () => {
  it("answers 404 for another user's server, another server's schedule and another schedule's task", async () => {
    const s = await newServer();
    const other = await newServer();
    const mine = await newSchedule(s);
    const theirs = await newSchedule(other);
    const task = await addTask(other, theirs.id);
    const NO_SERVER = [
      'NotFoundHttpException',
      'The requested resource does not exist on this server.',
    ] as const;
    expectError(await strangerClient.get(base(s)), 404, ...NO_SERVER);
    expectError(await strangerClient.get(`${base(s)}/${mine.id}`), 404, ...NO_SERVER);
    expectError(await ownerClient.get(`${base(s)}/${theirs.id}`), 404, ...NOT_FOUND);
    expectError(await ownerClient.get(`${base(s)}/abc`), 404, ...NOT_FOUND);
    expectError(await ownerClient.delete(`${base(s)}/${theirs.id}`), 404, ...NOT_FOUND);
    expectError(
      await ownerClient.post(`${base(s)}/${mine.id}/tasks/${task.id}`, {
        action: 'command',
        payload: 'x',
        time_offset: 0,
      }),
      404,
      ...NOT_FOUND,
    );
    expectError(await ownerClient.delete(`${base(s)}/${mine.id}/tasks/${task.id}`), 404, ...NOT_FOUND);
    expect(await order(other, theirs.id)).toEqual(['1:say hi']);
  });

  it('needs schedule.read / create / update / delete (403), each route its own', async () => {
    const s = await newServer();
    const created = await newSchedule(s);
    const task = await addTask(s, created.id);
    const { client: none } = await subuserClient(panel, s, ['control.console']);
    const FORBIDDEN = ['AccessDeniedHttpException', 'This action is unauthorized.'] as const;
    const url = `${base(s)}/${created.id}`;
    const taskBody = { action: 'command', payload: 'x', time_offset: 0 };
    expectError(await none.get(base(s)), 403, ...FORBIDDEN);
    expectError(await none.get(url), 403, ...FORBIDDEN);
    expectError(await none.post(base(s), BODY), 403, ...FORBIDDEN);
    expectError(await none.post(url, BODY), 403, ...FORBIDDEN);
    expectError(await none.post(`${url}/execute`), 403, ...FORBIDDEN);
    expectError(await none.delete(url), 403, ...FORBIDDEN);
    expectError(await none.post(`${url}/tasks`, taskBody), 403, ...FORBIDDEN);
    expectError(await none.post(`${url}/tasks/${task.id}`, taskBody), 403, ...FORBIDDEN);
    expectError(
      await none.delete(`${url}/tasks/${task.id}`),
      403,
      'HttpForbiddenException',
      'You do not have permission to perform this action.',
    );
    const { client: reader } = await subuserClient(panel, s, ['schedule.read']);
    expect((await reader.get(url)).status).toBe(200);
    expectError(await reader.post(url, BODY), 403, ...FORBIDDEN);
    const { client: creator } = await subuserClient(panel, s, ['schedule.create']);
    expect((await creator.post(base(s), BODY)).status).toBe(200);
    // A command task also needs control.console (CVE-2026-86177; schedules.task-permissions.test.ts).
    const { client: updater } = await subuserClient(panel, s, ['schedule.update', 'control.console']);
    expect((await updater.post(`${url}/tasks`, taskBody)).status).toBe(200);
    expectError(await updater.delete(url), 403, ...FORBIDDEN);
    const { client: deleter } = await subuserClient(panel, s, ['schedule.delete']);
    expect((await deleter.delete(url)).status).toBe(204);
    // Nothing the refused calls asked for happened.
    const names = (await ownerClient.get(base(s))).body.data.map(
      (d: { attributes: { name: string } }) => d.attributes.name,
    );
    expect(names).toEqual(['Nightly']);
  });
});
