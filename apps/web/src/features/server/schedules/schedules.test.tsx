import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import type { ClientSchedule, ClientScheduleTask } from '@talon/shared/client/schedule-wire';
import schedulesEn from '../../../../locales/en/schedules.json';
import { toSchedule } from '../../../api/schedules.ts';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt } from '../../../test/render.tsx';
import { setTestServer } from '../../../test/server.ts';
import { gateFor } from '../gating.ts';
import { useServerStore } from '../store.ts';
import { cronInWords } from './cronWords.ts';
import { ScheduleDetailPage } from './ScheduleDetailPage.tsx';
import { SchedulesPage } from './SchedulesPage.tsx';
import { TASK_MESSAGES, timeOffsetError } from './taskForm.ts';
import { OVERDUE_POLL_MS, PROCESSING_POLL_MS, pollInterval } from './useSchedules.ts';

const BASE = '/api/client/servers/abcd1234/schedules';

const task = (over: Partial<ClientScheduleTask>): ClientScheduleTask => ({
  id: 1,
  sequence_id: 1,
  action: 'command',
  payload: 'say hello',
  time_offset: 0,
  is_queued: false,
  continue_on_failure: false,
  created_at: '2026-11-20T10:00:00+00:00',
  updated_at: null,
  ...over,
});

/** A schedule; `tasks`, when given, replace those of `over`. */
const schedule = (over: Partial<ClientSchedule>, tasks?: ClientScheduleTask[]): ClientSchedule => ({
  id: 3,
  name: 'Announce',
  cron: { minute: '*/5', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' },
  is_active: true,
  is_processing: false,
  only_when_online: true,
  last_run_at: '2026-11-25T18:55:00+00:00',
  next_run_at: null,
  created_at: '2026-11-20T10:00:00+00:00',
  updated_at: null,
  relationships: { tasks: { object: 'list', data: [] } },
  ...over,
  ...(tasks && {
    relationships: {
      tasks: {
        object: 'list',
        data: tasks.map((attributes) => ({ object: 'schedule_task' as const, attributes })),
      },
    },
  }),
});

const ANNOUNCE = schedule({}, [
  task({
    id: 11,
    sequence_id: 2,
    action: 'power',
    payload: 'restart',
    time_offset: 60,
    continue_on_failure: true,
  }),
  task({ id: 10, sequence_id: 1, action: 'command', payload: 'say Restarting in a minute' }),
]);
const NIGHTLY = schedule({
  id: 4,
  name: 'Nightly backup',
  cron: { minute: '30', hour: '4', day_of_month: '*', month: '*', day_of_week: '*' },
  is_active: false,
  last_run_at: null,
});
const BUSY = schedule({ id: 5, name: 'Busy', is_processing: true });

const item = (attributes: ClientSchedule) => ({
  status: 200,
  body: { object: 'server_schedule', attributes },
});
const listOf = (all: ClientSchedule[]) => ({
  status: 200,
  body: { object: 'list', data: all.map((attributes) => ({ object: 'server_schedule', attributes })) },
});
const refusal = (status: number, detail: string) => ({
  status,
  body: { errors: [{ code: 'DisplayException', status: String(status), detail }] },
});

interface Call {
  url: string;
  method: string;
  body: unknown;
}
type Answer = { status: number; body?: unknown };

/**
 * A fetch answering from `panel` (the schedules the panel holds): GETs of the list and of one
 * schedule read it; `route` answers anything else (or overrides) and may change `panel`.
 */
function setup(
  permissions: string[],
  options: {
    schedules?: ClientSchedule[];
    route?: (call: Call, panel: { schedules: ClientSchedule[] }) => Answer | undefined;
    backups?: number;
    page?: 'list' | 'detail';
    id?: number;
  } = {},
) {
  const panel = { schedules: options.schedules ?? [ANNOUNCE, NIGHTLY] };
  const calls: Call[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const call: Call = {
      url,
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const one = /\/schedules\/(\d+)\?include=tasks$/.exec(url);
    const found = one ? panel.schedules.find((s) => s.id === Number(one[1])) : undefined;
    const answer: Answer =
      options.route?.(call, panel) ??
      (call.method === 'GET' && url === `${BASE}?include=tasks`
        ? listOf(panel.schedules)
        : call.method === 'GET' && one
          ? found
            ? item(found)
            : refusal(404, 'The requested resource could not be found on the server.')
          : { status: 500, body: { errors: [{ detail: `unexpected ${call.method} ${url}` }] } });
    const text = answer.body === undefined ? null : JSON.stringify(answer.body);
    return Promise.resolve(
      new Response(answer.status === 204 || answer.status === 202 ? null : text, { status: answer.status }),
    );
  });
  setTestServer(permissions, {
    feature_limits: { databases: 0, allocations: 0, backups: options.backups ?? 2 },
  });
  const page = options.page ?? 'list';
  const path =
    page === 'list' ? '/server/abcd1234/schedules' : `/server/abcd1234/schedules/${options.id ?? 3}`;
  const element = page === 'list' ? <SchedulesPage /> : <ScheduleDetailPage />;
  const rendered = renderAt(element, { path, routes: [{ path: '/server/:id/*', element }] });
  return { calls, panel, ...rendered };
}

const mutations = (calls: Call[]) => calls.filter((c) => c.method !== 'GET');
const dialog = () => screen.getByRole('dialog');
const ALL_SCHEDULE = ['schedule.read', 'schedule.create', 'schedule.update', 'schedule.delete'];

beforeAll(() => {
  i18next.addResourceBundle('en', 'schedules', schedulesEn);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  useServerStore.getState().clear();
  useGlobalStore.setState({ flashes: [] });
});

describe('cron in words', () => {
  const words = (minute: string, hour = '*', dayOfMonth = '*', month = '*', dayOfWeek = '*') => {
    const found = cronInWords({ minute, hour, dayOfMonth, month, dayOfWeek });
    return (
      found &&
      i18next.t(found.key, {
        ns: 'schedules',
        ...found.values,
        day:
          found.key === 'cron.weekly'
            ? i18next.t(`schedules:weekdays.${found.values.day}`)
            : found.values.day,
      })
    );
  };

  it('says the common shapes in words', () => {
    expect(words('*')).toBe('Every minute');
    expect(words('*/1')).toBe('Every minute');
    expect(words('*/5')).toBe('Every 5 minutes');
    expect(words('0')).toBe('Every hour');
    expect(words('15')).toBe('Every hour at minute 15');
    expect(words('0', '*/6')).toBe('Every 6 hours at minute 00');
    expect(words('30', '4')).toBe('Every day at 04:30');
    expect(words('0', '20', '*', '*', '1')).toBe('Every Monday at 20:00');
    expect(words('0', '20', '*', '*', '7')).toBe('Every Sunday at 20:00');
    expect(words('0', '20', '*', '*', 'fri')).toBe('Every Friday at 20:00');
    expect(words('0', '3', '1')).toBe('On day 1 of every month at 03:00');
  });

  it('leaves other shapes to the fields (null)', () => {
    expect(words('1,31')).toBeNull();
    expect(words('*/5', '1-5')).toBeNull();
    expect(words('0', '0', '*', '1')).toBeNull();
    expect(words('0', '0', '1', '*', '1')).toBeNull();
    expect(words('60')).toBeNull();
    expect(words('0', '24')).toBeNull();
    expect(words('*/0')).toBeNull();
    expect(words('0', '0', '*', '*', '1-5')).toBeNull();
  });
});

describe('polling', () => {
  const now = Date.parse('2026-11-25T19:00:00Z');
  const of = (over: Partial<ClientSchedule>) => toSchedule(schedule(over));

  it('asks every two seconds while any schedule is processing', () => {
    expect(pollInterval([of({}), of({ is_processing: true })], now)).toBe(PROCESSING_POLL_MS);
  });

  it('asks just after the earliest active next run, at most a minute ahead, and never for inactive ones', () => {
    expect(pollInterval([of({ next_run_at: '2026-11-25T19:00:30Z' })], now)).toBe(31_000);
    expect(pollInterval([of({ next_run_at: '2026-11-25T23:00:00Z' })], now)).toBe(60_000);
    // Already past (the runner has not got to it): now and then, not in a busy loop.
    expect(pollInterval([of({ next_run_at: '2026-11-25T18:00:00Z' })], now)).toBe(OVERDUE_POLL_MS);
    expect(pollInterval([of({ is_active: false, next_run_at: '2026-11-25T19:00:30Z' })], now)).toBe(false);
    expect(pollInterval([], now)).toBe(false);
  });
});

describe('gating', () => {
  it('opens the list and a schedule with any schedule permission, denies them otherwise', () => {
    expect(gateFor('schedules', ['schedule.read'])).toBe('allowed');
    expect(gateFor('schedules/12', ['schedule.read'])).toBe('allowed');
    expect(gateFor('schedules/12', ['file.read'])).toBe('denied');
    expect(gateFor('schedules/12/tasks', ['*'])).toBe('not-found');
  });
});

describe('schedules list', () => {
  it('lists each schedule linking to {current url}/{id}, with name, cron in words beside the fields, last and next run and badge', async () => {
    const { calls } = setup(['*'], { schedules: [ANNOUNCE, NIGHTLY, BUSY] });
    const announce = await screen.findByTestId('schedule-3');
    expect(calls[0]).toMatchObject({ url: `${BASE}?include=tasks`, method: 'GET' });
    expect(document.title).toBe('Survival | Schedules');
    expect(screen.getByRole('heading', { name: 'Schedules' })).toBeInTheDocument();
    expect(within(announce).getByRole('link')).toHaveAttribute('href', '/server/abcd1234/schedules/3');
    expect(within(announce).getByTestId('schedule-name')).toHaveTextContent('Announce');
    expect(within(announce).getByTestId('schedule-cron-words')).toHaveTextContent('Every 5 minutes');
    expect(within(announce).getByTestId('schedule-cron')).toHaveTextContent('*/5 * * * *');
    expect(within(announce).getByTestId('schedule-last-run')).toHaveAttribute(
      'dateTime',
      '2026-11-25T18:55:00.000Z',
    );
    expect(within(announce).getByTestId('schedule-next-run')).toHaveTextContent('n/a');
    expect(within(announce).getByTestId('schedule-badge')).toHaveTextContent('Active');
    const nightly = screen.getByTestId('schedule-4');
    expect(within(nightly).getByTestId('schedule-cron-words')).toHaveTextContent('Every day at 04:30');
    expect(within(nightly).getByTestId('schedule-cron')).toHaveTextContent('30 4 * * *');
    expect(within(nightly).getByTestId('schedule-last-run')).toHaveTextContent('n/a');
    expect(within(nightly).getByTestId('schedule-badge')).toHaveTextContent('Inactive');
    expect(within(screen.getByTestId('schedule-5')).getByTestId('schedule-badge')).toHaveTextContent(
      'Processing',
    );
  });

  it('shows the fields alone for a cron without words', async () => {
    setup(['*'], {
      schedules: [
        schedule({
          cron: { minute: '1,31', hour: '8-17', day_of_month: '*', month: '*', day_of_week: '1-5' },
        }),
      ],
    });
    const row = await screen.findByTestId('schedule-3');
    expect(within(row).queryByTestId('schedule-cron-words')).toBeNull();
    expect(within(row).getByTestId('schedule-cron')).toHaveTextContent('1,31 8-17 * * 1-5');
  });

  it('says when there are no schedules', async () => {
    setup(['*'], { schedules: [] });
    expect(await screen.findByText('There are no schedules configured for this server.')).toBeInTheDocument();
  });

  it('shows a failed load under the schedules key with a retry', async () => {
    let fail = true;
    setup(['*'], {
      route: (call) => (call.method === 'GET' && fail ? refusal(500, 'The panel is unwell.') : undefined),
    });
    expect(await screen.findByText('The panel is unwell.')).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['schedules']);
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('schedule-3')).toBeInTheDocument();
  });

  it("opens 'Create schedule' with the spec's defaults and adds the answer to the list", async () => {
    const created = schedule({
      id: 9,
      name: 'Restart',
      cron: { minute: '*/5', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' },
    });
    const { calls } = setup(['*'], {
      route: (call, panel) => {
        if (call.method !== 'POST') return undefined;
        panel.schedules.push(created);
        return item(created);
      },
    });
    await screen.findByTestId('schedule-3');
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    const modal = dialog();
    expect(within(modal).getByRole('heading', { name: 'Create schedule' })).toBeInTheDocument();
    expect(within(modal).getByLabelText('Minute')).toHaveValue('*/5');
    expect(within(modal).getByLabelText('Hour')).toHaveValue('*');
    expect(within(modal).getByLabelText('Day (Month)')).toHaveValue('*');
    expect(within(modal).getByLabelText('Month')).toHaveValue('*');
    expect(within(modal).getByLabelText('Day (Week)')).toHaveValue('*');
    expect(within(modal).getByRole('switch', { name: 'Schedule Enabled' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(within(modal).getByRole('switch', { name: 'Only When Server Is Online' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    // The first field has the focus: the keyboard starts typing the name.
    expect(within(modal).getByLabelText('Schedule name')).toHaveFocus();
    fireEvent.change(within(modal).getByLabelText('Schedule name'), { target: { value: 'Restart' } });
    fireEvent.click(within(modal).getByRole('switch', { name: 'Only When Server Is Online' }));
    fireEvent.click(within(modal).getByRole('button', { name: 'Create schedule' }));
    expect(await screen.findByTestId('schedule-9')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(mutations(calls)).toEqual([
      {
        url: BASE,
        method: 'POST',
        body: {
          name: 'Restart',
          is_active: true,
          only_when_online: false,
          minute: '*/5',
          hour: '*',
          day_of_month: '*',
          month: '*',
          day_of_week: '*',
        },
      },
    ]);
  });

  it("keeps the modal open with the panel's refusal under schedule:edit", async () => {
    const { calls } = setup(['*'], {
      route: (call) =>
        call.method === 'POST'
          ? refusal(400, 'The cron data provided does not evaluate to a valid expression.')
          : undefined,
    });
    await screen.findByTestId('schedule-3');
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    fireEvent.change(within(dialog()).getByLabelText('Schedule name'), { target: { value: 'Bad' } });
    fireEvent.change(within(dialog()).getByLabelText('Minute'), { target: { value: '61' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Create schedule' }));
    expect(
      await within(dialog()).findByText('The cron data provided does not evaluate to a valid expression.'),
    ).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['schedule:edit']);
    expect(mutations(calls)).toHaveLength(1);
    expect(screen.queryByTestId('schedule-9')).toBeNull();
  });

  it('offers Create schedule only with schedule.create', async () => {
    setup(['schedule.read', 'schedule.update']);
    await screen.findByTestId('schedule-3');
    expect(screen.queryByRole('button', { name: 'Create schedule' })).toBeNull();
  });
});

describe('schedule page', () => {
  it('shows name, badge, last and next run, the five fields and the tasks in order', async () => {
    const { calls } = setup(['*'], {
      page: 'detail',
      schedules: [
        schedule({ ...ANNOUNCE, next_run_at: '2026-11-25T19:05:00+00:00' }, [
          task({
            id: 11,
            sequence_id: 2,
            action: 'power',
            payload: 'restart',
            time_offset: 60,
            continue_on_failure: true,
          }),
          task({ id: 10, sequence_id: 1, action: 'command', payload: 'say Restarting in a minute' }),
          task({ id: 12, sequence_id: 3, action: 'backup', payload: 'logs/\n*.tmp', time_offset: 30 }),
        ]),
      ],
    });
    expect(await screen.findByRole('heading', { name: 'Announce' })).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ url: `${BASE}/3?include=tasks`, method: 'GET' });
    expect(document.title).toBe('Survival | Announce');
    expect(screen.getByTestId('schedule-badge')).toHaveTextContent('Active');
    expect(screen.getByTestId('schedule-cron-words')).toHaveTextContent('Every 5 minutes');
    expect(screen.getByTestId('schedule-last-run')).toHaveAttribute('dateTime', '2026-11-25T18:55:00.000Z');
    expect(screen.getByTestId('schedule-next-run')).toHaveAttribute('dateTime', '2026-11-25T19:05:00.000Z');
    expect(screen.getByTestId('cron-minute')).toHaveTextContent('*/5');
    for (const field of ['hour', 'dayOfMonth', 'month', 'dayOfWeek']) {
      expect(screen.getByTestId(`cron-${field}`)).toHaveTextContent('*');
    }
    const rows = within(screen.getByRole('list', { name: 'Tasks' })).getAllByRole('listitem');
    expect(rows.map((r) => r.dataset.testid)).toEqual(['task-10', 'task-11', 'task-12']);
    expect(within(rows[0]!).getByTestId('task-action')).toHaveTextContent('Send command');
    expect(within(rows[0]!).getByTestId('task-payload')).toHaveTextContent('say Restarting in a minute');
    expect(within(rows[0]!).getByTestId('task-offset')).toHaveTextContent('Delay 0 s');
    expect(within(rows[0]!).queryByTestId('task-continues')).toBeNull();
    expect(within(rows[1]!).getByTestId('task-action')).toHaveTextContent('Send power action');
    expect(within(rows[1]!).getByTestId('task-payload')).toHaveTextContent('Restart the server');
    expect(within(rows[1]!).getByTestId('task-offset')).toHaveTextContent('Delay 60 s');
    expect(within(rows[1]!).getByTestId('task-continues')).toHaveTextContent('Continues on failure');
    expect(within(rows[2]!).getByTestId('task-action')).toHaveTextContent('Create backup');
    expect(within(rows[2]!).getByTestId('task-payload')).toHaveTextContent('Ignored files: logs/, *.tmp');
    for (const name of ['Edit', 'New Task', 'Delete', 'Run Now']) {
      expect(screen.getByRole('button', { name })).toBeEnabled();
    }
  });

  it('shows Edit, New Task and Run Now only with schedule.update, Delete only with schedule.delete', async () => {
    setup(['schedule.read', 'schedule.delete'], { page: 'detail' });
    await screen.findByRole('heading', { name: 'Announce' });
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    for (const name of ['Edit', 'New Task', 'Run Now', 'Edit task 1', 'Delete task 1']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    cleanup();
    setup(['schedule.read', 'schedule.update'], { page: 'detail' });
    await screen.findByRole('heading', { name: 'Announce' });
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Run Now' })).toBeInTheDocument();
  });

  it('says a schedule that is not there (another server’s, deleted) could not be found', async () => {
    setup(['*'], { page: 'detail', id: 77 });
    expect(await screen.findByText('This schedule could not be found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to schedules/ })).toHaveAttribute(
      'href',
      '/server/abcd1234/schedules',
    );
  });

  it('Run Now: sends execute, shows Processing with Run Now disabled, and follows the run until it ends', async () => {
    const { calls, panel } = setup(ALL_SCHEDULE, {
      page: 'detail',
      route: (call, state) => {
        if (call.method === 'POST' && call.url === `${BASE}/3/execute`) {
          state.schedules = [schedule({ ...ANNOUNCE, is_processing: true })];
          return { status: 202 };
        }
        return undefined;
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Run Now' }));
    await waitFor(() => expect(screen.getByTestId('schedule-badge')).toHaveTextContent('Processing'));
    expect(screen.getByRole('button', { name: 'Run Now' })).toBeDisabled();
    expect(mutations(calls)).toEqual([{ url: `${BASE}/3/execute`, method: 'POST', body: undefined }]);
    // The runner finishes: the open page learns it by itself.
    panel.schedules = [
      schedule({ ...ANNOUNCE, is_processing: false, last_run_at: '2026-11-25T19:01:00+00:00' }),
    ];
    await waitFor(() => expect(screen.getByTestId('schedule-badge')).toHaveTextContent('Active'));
    expect(screen.getByTestId('schedule-last-run')).toHaveAttribute('dateTime', '2026-11-25T19:01:00.000Z');
    expect(screen.getByRole('button', { name: 'Run Now' })).toBeEnabled();
  });

  it('disables Run Now for a schedule that is processing when opened, and one without tasks', async () => {
    setup(['*'], { page: 'detail', id: 5, schedules: [BUSY] });
    await screen.findByRole('heading', { name: 'Busy' });
    expect(screen.getByTestId('schedule-badge')).toHaveTextContent('Processing');
    expect(screen.getByRole('button', { name: 'Run Now' })).toBeDisabled();
    expect(screen.getByText('This schedule has no tasks yet. Add one with New Task.')).toBeInTheDocument();
  });

  it("shows Run Now's refusal under the schedules key", async () => {
    setup(['*'], {
      page: 'detail',
      route: (call) =>
        call.method === 'POST'
          ? refusal(409, 'This server is currently being restored from a backup.')
          : undefined,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Run Now' }));
    expect(
      await screen.findByText('This server is currently being restored from a backup.'),
    ).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['schedules']);
    expect(screen.getByTestId('schedule-badge')).toHaveTextContent('Active');
  });

  it('edits the schedule with its current values and shows the answer', async () => {
    const { calls } = setup(['*'], {
      page: 'detail',
      route: (call, panel) => {
        if (call.method !== 'POST') return undefined;
        const saved = schedule({
          ...ANNOUNCE,
          cron: { minute: '0', hour: '*/2', day_of_month: '*', month: '*', day_of_week: '*' },
          is_active: false,
        });
        panel.schedules = [saved];
        return item(saved);
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const modal = dialog();
    expect(within(modal).getByRole('heading', { name: 'Edit schedule' })).toBeInTheDocument();
    expect(within(modal).getByLabelText('Schedule name')).toHaveValue('Announce');
    expect(within(modal).getByLabelText('Minute')).toHaveValue('*/5');
    fireEvent.change(within(modal).getByLabelText('Minute'), { target: { value: '0' } });
    fireEvent.change(within(modal).getByLabelText('Hour'), { target: { value: '*/2' } });
    fireEvent.click(within(modal).getByRole('switch', { name: 'Schedule Enabled' }));
    fireEvent.click(within(modal).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mutations(calls)).toEqual([
      {
        url: `${BASE}/3`,
        method: 'POST',
        body: {
          name: 'Announce',
          is_active: false,
          only_when_online: true,
          minute: '0',
          hour: '*/2',
          day_of_month: '*',
          month: '*',
          day_of_week: '*',
        },
      },
    ]);
    expect(screen.getByTestId('cron-hour')).toHaveTextContent('*/2');
    expect(screen.getByTestId('schedule-cron-words')).toHaveTextContent('Every 2 hours at minute 00');
    expect(screen.getByTestId('schedule-badge')).toHaveTextContent('Inactive');
  });

  it('Delete asks first, then deletes and returns to the list', async () => {
    const { calls, router } = setup(['*'], {
      page: 'detail',
      route: (call) => (call.method === 'DELETE' ? { status: 204 } : undefined),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(mutations(calls)).toEqual([]);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Delete schedule' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/server/abcd1234/schedules'));
    expect(mutations(calls)).toEqual([{ url: `${BASE}/3`, method: 'DELETE', body: undefined }]);
  });

  it('stays on the schedule with the refusal when deleting fails', async () => {
    const { router } = setup(['*'], {
      page: 'detail',
      route: (call) => (call.method === 'DELETE' ? refusal(403, 'This action is unauthorized.') : undefined),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Delete schedule' }));
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/server/abcd1234/schedules/3');
  });
});

describe('task modal', () => {
  async function openNewTask(options: Parameters<typeof setup>[1] = {}) {
    const rendered = setup(['*'], { page: 'detail', ...options });
    fireEvent.click(await screen.findByRole('button', { name: 'New Task' }));
    return { ...rendered, modal: dialog() };
  }
  const submit = (modal: HTMLElement) =>
    fireEvent.click(within(modal).getByRole('button', { name: 'Create task' }));

  it("opens with the spec's defaults: command, empty payload, offset 0, not continuing", async () => {
    const { modal } = await openNewTask();
    expect(within(modal).getByRole('heading', { name: 'Create task' })).toBeInTheDocument();
    expect(within(modal).getByLabelText('Action')).toHaveValue('command');
    expect(within(modal).getByLabelText('Command')).toHaveValue('');
    expect(within(modal).getByLabelText('Time offset (in seconds)')).toHaveValue('0');
    expect(within(modal).getByRole('checkbox', { name: /Continue on failure/ })).not.toBeChecked();
  });

  it('says each validation message word for word and sends nothing', async () => {
    const { modal, calls } = await openNewTask();
    submit(modal);
    expect(await within(modal).findByText('A task payload must be provided.')).toBeInTheDocument();
    const offset = within(modal).getByLabelText('Time offset (in seconds)');
    for (const [value, message] of [
      ['', 'A time offset value must be provided.'],
      ['-1', 'The time offset must be at least 0 seconds.'],
      ['901', 'The time offset must be less than 900 seconds.'],
      ['soon', 'The time offset must be a valid number between 0 and 900.'],
    ] as const) {
      fireEvent.change(offset, { target: { value } });
      fireEvent.blur(offset);
      expect(await within(modal).findByText(message)).toBeInTheDocument();
    }
    submit(modal);
    await within(modal).findByText('The time offset must be a valid number between 0 and 900.');
    expect(mutations(calls)).toEqual([]);
  });

  it('knows the offset bounds: 0 and 900 pass, fractions do not', () => {
    expect(timeOffsetError('0')).toBeNull();
    expect(timeOffsetError('900')).toBeNull();
    expect(timeOffsetError(' 30 ')).toBeNull();
    expect(timeOffsetError('1.5')).toBe(TASK_MESSAGES.offsetType);
  });

  it('resets the payload when the action changes: start for power, empty otherwise', async () => {
    const { modal } = await openNewTask();
    fireEvent.change(within(modal).getByLabelText('Command'), { target: { value: 'say hi' } });
    fireEvent.change(within(modal).getByLabelText('Action'), { target: { value: 'power' } });
    expect(within(modal).getByLabelText('Power action')).toHaveValue('start');
    fireEvent.change(within(modal).getByLabelText('Power action'), { target: { value: 'kill' } });
    fireEvent.change(within(modal).getByLabelText('Action'), { target: { value: 'backup' } });
    expect(within(modal).getByLabelText('Ignored files')).toHaveValue('');
    fireEvent.change(within(modal).getByLabelText('Action'), { target: { value: 'command' } });
    expect(within(modal).getByLabelText('Command')).toHaveValue('');
  });

  it('creates a power task with its offset and continue-on-failure, then shows the refreshed list', async () => {
    const { modal, calls } = await openNewTask({
      route: (call, panel) => {
        if (call.method !== 'POST') return undefined;
        const made = task({
          id: 12,
          sequence_id: 3,
          action: 'power',
          payload: 'restart',
          time_offset: 15,
          continue_on_failure: true,
        });
        panel.schedules = [
          schedule({ ...ANNOUNCE }, [...ANNOUNCE.relationships.tasks.data.map((d) => d.attributes), made]),
        ];
        return { status: 200, body: { object: 'schedule_task', attributes: made } };
      },
    });
    fireEvent.change(within(modal).getByLabelText('Action'), { target: { value: 'power' } });
    fireEvent.change(within(modal).getByLabelText('Power action'), { target: { value: 'restart' } });
    fireEvent.change(within(modal).getByLabelText('Time offset (in seconds)'), { target: { value: '15' } });
    fireEvent.click(within(modal).getByRole('checkbox', { name: /Continue on failure/ }));
    submit(modal);
    expect(await screen.findByTestId('task-12')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(mutations(calls)).toEqual([
      {
        url: `${BASE}/3/tasks`,
        method: 'POST',
        body: { action: 'power', payload: 'restart', time_offset: 15, continue_on_failure: true },
      },
    ]);
  });

  it("refuses a backup task when the server's backup limit is 0, with the spec's message", async () => {
    const { modal, calls } = await openNewTask({ backups: 0 });
    fireEvent.change(within(modal).getByLabelText('Action'), { target: { value: 'backup' } });
    expect(
      within(modal).getByText("A backup task cannot be created when the server's backup limit is set to 0."),
    ).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Create task' })).toBeDisabled();
    fireEvent.change(within(modal).getByLabelText('Action'), { target: { value: 'command' } });
    expect(
      within(modal).queryByText(
        "A backup task cannot be created when the server's backup limit is set to 0.",
      ),
    ).toBeNull();
    expect(mutations(calls)).toEqual([]);
  });

  it('creates a backup task without a payload when backups are allowed', async () => {
    const { modal, calls } = await openNewTask({
      route: (call) =>
        call.method === 'POST'
          ? {
              status: 200,
              body: { object: 'schedule_task', attributes: task({ id: 13, action: 'backup', payload: '' }) },
            }
          : undefined,
    });
    fireEvent.change(within(modal).getByLabelText('Action'), { target: { value: 'backup' } });
    submit(modal);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mutations(calls)[0]).toMatchObject({
      body: { action: 'backup', payload: '', time_offset: 0, continue_on_failure: false },
    });
  });

  it("shows the panel's refusal under schedule:task and keeps the modal", async () => {
    const limit =
      'Schedules may not have more than 10 tasks associated with them. Creating this task would put this schedule over the limit.';
    const { modal } = await openNewTask({
      route: (call) => (call.method === 'POST' ? refusal(400, limit) : undefined),
    });
    fireEvent.change(within(modal).getByLabelText('Command'), { target: { value: 'say hi' } });
    submit(modal);
    expect(await within(modal).findByText(limit)).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['schedule:task']);
  });

  it("edits a task with its values and sends the update to the task's own address", async () => {
    const { calls } = setup(['*'], {
      page: 'detail',
      route: (call) =>
        call.method === 'POST'
          ? {
              status: 200,
              body: {
                object: 'schedule_task',
                attributes: task({ id: 11, action: 'command', payload: 'stop' }),
              },
            }
          : undefined,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit task 2' }));
    const modal = dialog();
    expect(within(modal).getByRole('heading', { name: 'Edit task' })).toBeInTheDocument();
    expect(within(modal).getByLabelText('Action')).toHaveValue('power');
    expect(within(modal).getByLabelText('Power action')).toHaveValue('restart');
    expect(within(modal).getByLabelText('Time offset (in seconds)')).toHaveValue('60');
    expect(within(modal).getByRole('checkbox', { name: /Continue on failure/ })).toBeChecked();
    fireEvent.change(within(modal).getByLabelText('Power action'), { target: { value: 'stop' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mutations(calls)).toEqual([
      {
        url: `${BASE}/3/tasks/11`,
        method: 'POST',
        body: { action: 'power', payload: 'stop', time_offset: 60, continue_on_failure: true },
      },
    ]);
  });

  it('deletes a task after confirming', async () => {
    const { calls } = setup(['*'], {
      page: 'detail',
      route: (call, panel) => {
        if (call.method !== 'DELETE') return undefined;
        panel.schedules = [
          schedule({ ...ANNOUNCE }, [task({ id: 11, sequence_id: 1, action: 'power', payload: 'restart' })]),
        ];
        return { status: 204 };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete task 1' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Delete task' }));
    await waitFor(() => expect(screen.queryByTestId('task-10')).toBeNull());
    expect(screen.getByTestId('task-11')).toBeInTheDocument();
    expect(mutations(calls)).toEqual([{ url: `${BASE}/3/tasks/10`, method: 'DELETE', body: undefined }]);
  });
});
