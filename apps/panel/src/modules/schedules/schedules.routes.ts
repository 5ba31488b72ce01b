import { SCHEDULE_NAME_MAX, SCHEDULE_TASK_ACTIONS, SCHEDULE_TASK_OFFSET_MAX } from '@talon/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor } from '../../http/context.ts';
import { item, list } from '../../http/envelope.ts';
import { errors, HttpError } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { isTrue } from '../../lib/flags.ts';
import { nestedResource, permittedAccess, serverRoute } from '../../http/server-guard.ts';
import { scheduleAttributes, taskAttributes } from './schedules.presenter.ts';
import type { ScheduleInput, TaskInput } from './schedules.service.ts';

const SCHEDULE_RULES = {
  name: `required|string|max:${SCHEDULE_NAME_MAX}`,
  is_active: 'sometimes|filled|boolean',
  only_when_online: 'nullable|boolean',
  minute: 'required|string',
  hour: 'required|string',
  day_of_month: 'required|string',
  month: 'nullable|string',
  day_of_week: 'required|string',
} as const;

const TASK_RULES = {
  action: `required|in:${SCHEDULE_TASK_ACTIONS.join(',')}`,
  payload: 'required_unless:action,backup|nullable|string',
  time_offset: `required|numeric|between:0,${SCHEDULE_TASK_OFFSET_MAX}`,
  sequence_id: 'sometimes|required|numeric|min:1',
  continue_on_failure: 'sometimes|required|boolean',
} as const;

type Body = Record<string, unknown>;

/** The task delete's own refusal text (reference). */
const taskDeleteDenied = () =>
  new HttpError(403, 'HttpForbiddenException', 'You do not have permission to perform this action.');

/**
 * Client API schedule routes (reference §3.3 "Schedules and tasks"). `{schedule}` is found through
 * the server and `{task}` through the schedule, so another server's schedule or another schedule's
 * task is a 404 before the permission is looked at.
 */
export function scheduleRoutes(app: FastifyInstance, ctx: AppContext) {
  const { services, repositories } = ctx;
  const repo = repositories.schedules;
  const prefix = '/api/client/servers/:server/schedules';
  const schedule = nestedResource(async (access, params) => {
    const found = await repo.find(access.server.id, idOf(params.schedule));
    if (!found) throw errors.notFound();
    return found;
  });
  const task = nestedResource(async (access, params) => {
    const parent = await repo.find(access.server.id, idOf(params.schedule));
    const found = parent ? await repo.findTask(parent.id, idOf(params.task)) : undefined;
    if (!parent || !found) throw errors.notFound();
    return { schedule: parent, task: found };
  });
  const present = async (id: number) => {
    const s = await repo.byId(id);
    if (!s) throw errors.notFound();
    return item('server_schedule', scheduleAttributes(s, await repo.tasksOf([s.id])));
  };

  app.get(prefix, serverRoute('schedule.read'), async (req) => {
    const all = await repo.listOfServer(permittedAccess(req).server.id);
    const tasks = await repo.tasksOf(all.map((s) => s.id));
    return list(
      'server_schedule',
      all.map((s) =>
        scheduleAttributes(
          s,
          tasks.filter((t) => t.schedule_id === s.id),
        ),
      ),
    );
  });

  app.post(prefix, serverRoute('schedule.create'), async (req) => {
    const { server } = permittedAccess(req);
    const created = await services.schedules.create(server, scheduleInput(req.body), activityActor(req));
    return present(created.id);
  });

  app.get(`${prefix}/:schedule`, serverRoute('schedule.read', { nested: schedule }), async (req) =>
    present(schedule.of(req).id),
  );

  app.post(`${prefix}/:schedule`, serverRoute('schedule.update', { nested: schedule }), async (req) => {
    const { server } = permittedAccess(req);
    const updated = await services.schedules.update(
      server,
      schedule.of(req),
      scheduleInput(req.body),
      activityActor(req),
    );
    return present(updated.id);
  });

  app.post(
    `${prefix}/:schedule/execute`,
    serverRoute('schedule.update', { nested: schedule }),
    async (req, reply) => {
      await services.schedules.execute(permittedAccess(req).server, schedule.of(req), activityActor(req));
      return reply.code(202).send();
    },
  );

  app.delete(
    `${prefix}/:schedule`,
    serverRoute('schedule.delete', { nested: schedule }),
    async (req, reply) => {
      await services.schedules.delete(permittedAccess(req).server, schedule.of(req), activityActor(req));
      return reply.code(204).send();
    },
  );

  app.post(`${prefix}/:schedule/tasks`, serverRoute('schedule.update', { nested: schedule }), async (req) => {
    const created = await services.schedules.createTask(
      permittedAccess(req),
      schedule.of(req),
      taskInput(req),
      activityActor(req),
    );
    return item('schedule_task', taskAttributes(created));
  });

  app.post(
    `${prefix}/:schedule/tasks/:task`,
    serverRoute('schedule.update', { nested: task }),
    async (req) => {
      const found = task.of(req);
      const updated = await services.schedules.updateTask(
        permittedAccess(req),
        found.schedule,
        found.task,
        taskInput(req),
        activityActor(req),
      );
      return item('schedule_task', taskAttributes(updated));
    },
  );

  app.delete(
    `${prefix}/:schedule/tasks/:task`,
    serverRoute('schedule.update', {
      nested: task,
      denied: taskDeleteDenied,
    }),
    async (req, reply) => {
      const found = task.of(req);
      await services.schedules.deleteTask(
        permittedAccess(req).server,
        found.schedule,
        found.task,
        activityActor(req),
      );
      return reply.code(204).send();
    },
  );
}

/** A path id: digits only, anything else finds nothing (404). */
function idOf(value: string | undefined): number {
  return /^\d{1,9}$/u.test(value ?? '') ? Number(value) : -1;
}

/**
 * The schedule body. Talon stores a missing `is_active` as active and a missing `month` as `*`
 * (the reference stores inactive / answers 500: docs/compatibility.md).
 */
function scheduleInput(body: unknown): ScheduleInput {
  const input = check<Body>(body, SCHEDULE_RULES);
  return {
    name: String(input.name),
    is_active: input.is_active === undefined ? true : isTrue(input.is_active),
    only_when_online: isTrue(input.only_when_online),
    cron: {
      minute: String(input.minute),
      hour: String(input.hour),
      day_of_month: String(input.day_of_month),
      month: typeof input.month === 'string' ? input.month : '*',
      day_of_week: String(input.day_of_week),
    },
  };
}

function taskInput(req: FastifyRequest): TaskInput {
  const input = check<Body>(req.body, TASK_RULES);
  const sequence =
    input.sequence_id === undefined ? null : Math.max(1, Math.floor(Number(input.sequence_id)));
  return {
    action: String(input.action),
    payload: typeof input.payload === 'string' ? input.payload : '',
    time_offset: Math.floor(Number(input.time_offset)),
    continue_on_failure: isTrue(input.continue_on_failure) ? 1 : 0,
    sequence,
  };
}
