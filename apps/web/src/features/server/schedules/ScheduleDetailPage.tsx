import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HttpError, httpErrorToHuman } from '../../../api/errors.ts';
import { deleteSchedule, deleteTask, runSchedule, type Schedule, type Task } from '../../../api/schedules.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { ConfirmationModal } from '../../../components/ConfirmationModal.tsx';
import { ScreenBlock } from '../../../components/ScreenBlock.tsx';
import { CenteredSpinner } from '../../../components/Spinner.tsx';
import { can } from '../../../lib/shared.ts';
import { useTitle } from '../../../lib/useTitle.ts';
import { useServerStore } from '../store.ts';
import { SCHEDULES_FLASH } from './flash.ts';
import { CronWordsText, RunTime, ScheduleBadge } from './parts.tsx';
import { ScheduleModal } from './ScheduleModal.tsx';
import { TaskModal } from './TaskModal.tsx';
import { TaskRow } from './TaskRow.tsx';
import { useSchedule, useScheduleCache } from './useSchedules.ts';

/** /server/{id}/schedules/{scheduleId}: the id from the path, or null when it is not one. */
function useScheduleId(): number | null {
  const rest = useParams()['*'] ?? '';
  const match = /(?:^|\/)schedules\/(\d+)\/?$/.exec(rest);
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** /server/{id}/schedules/{id} (spec 001 §2): the schedule, its tasks and their actions. */
export function ScheduleDetailPage() {
  const { t } = useTranslation('schedules');
  const id = useScheduleId();
  if (id === null) return <ScreenBlock title="404" message={t('not_found')} />;
  return <ScheduleDetail key={id} id={id} />;
}

function ScheduleDetail({ id }: { id: number }) {
  const { t } = useTranslation('schedules');
  const serverId = useServerStore((s) => s.server!.id);
  const serverName = useServerStore((s) => s.server!.name);
  const query = useSchedule(id);
  const schedule = query.data;
  useTitle(`${serverName} | ${schedule?.name ?? t('title')}`);
  useEffect(() => {
    useGlobalStore.getState().clearFlashes(SCHEDULES_FLASH);
  }, []);
  const loadError = query.error;
  const missing = loadError instanceof HttpError && loadError.status === 404;
  useEffect(() => {
    if (loadError && !missing) flashError(SCHEDULES_FLASH, httpErrorToHuman(loadError));
  }, [loadError, missing]);

  if (missing) {
    return (
      <div className="space-y-4">
        <ScreenBlock title="404" message={t('not_found')} />
        <BackLink serverId={serverId} />
      </div>
    );
  }
  if (!schedule) {
    if (query.isFetching || !query.isError) return <CenteredSpinner />;
    return (
      <div className="space-y-4">
        <FlashMessageRender byKey={SCHEDULES_FLASH} />
        <div className="flex justify-center">
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t('retry')}
          </Button>
        </div>
      </div>
    );
  }
  return <ScheduleView schedule={schedule} />;
}

function BackLink({ serverId }: { serverId: string }) {
  const { t } = useTranslation('schedules');
  return (
    <Link
      to={`/server/${serverId}/schedules`}
      className="focus-ring inline-flex items-center gap-1 rounded text-sm text-zinc-400 hover:text-zinc-100"
    >
      ← {t('back')}
    </Link>
  );
}

const CRON_CELLS = [
  ['minute', 'minute'],
  ['hour', 'hour'],
  ['dayOfMonth', 'day_of_month'],
  ['month', 'month'],
  ['dayOfWeek', 'day_of_week'],
] as const;

function ScheduleView({ schedule }: { schedule: Schedule }) {
  const { t } = useTranslation('schedules');
  const serverId = useServerStore((s) => s.server!.id);
  const permissions = useServerStore((s) => s.permissions);
  const mayUpdate = can(permissions, 'schedule.update');
  const mayDelete = can(permissions, 'schedule.delete');
  const cache = useScheduleCache();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  // `undefined`: closed; `null`: New Task; a task: its edit.
  const [taskModal, setTaskModal] = useState<Task | null | undefined>(undefined);
  const [deletingTask, setDeletingTask] = useState<Task | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState<'run' | 'delete' | 'task' | null>(null);

  const fail = (error: unknown) => flashError(SCHEDULES_FLASH, httpErrorToHuman(error));
  const clear = () => useGlobalStore.getState().clearFlashes(SCHEDULES_FLASH);

  const runNow = async () => {
    clear();
    setBusy('run');
    try {
      await runSchedule(serverId, schedule.id);
      // Processing at once; the poll then follows the chain until the runner is done.
      cache.put({ ...schedule, isProcessing: true });
      void cache.refresh(schedule.id);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    clear();
    setBusy('delete');
    try {
      await deleteSchedule(serverId, schedule.id);
      setConfirmDelete(false);
      cache.remove(schedule.id);
      void navigate(`/server/${serverId}/schedules`);
    } catch (error) {
      setConfirmDelete(false);
      setBusy(null);
      fail(error);
    }
  };

  const removeTask = async (task: Task) => {
    clear();
    setBusy('task');
    try {
      await deleteTask(serverId, schedule.id, task.id);
      cache.put({ ...schedule, tasks: schedule.tasks.filter((other) => other.id !== task.id) });
      // The tasks after it moved up a place.
      void cache.refresh(schedule.id);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
      setDeletingTask(null);
    }
  };

  return (
    <div className="space-y-5">
      <BackLink serverId={serverId} />
      <FlashMessageRender byKey={SCHEDULES_FLASH} />
      <section className="space-y-4 rounded-lg border border-zinc-800 bg-zinc-900/80 p-4 sm:p-5">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-xl font-semibold break-words text-zinc-100" data-testid="schedule-name">
            {schedule.name}
          </h1>
          <ScheduleBadge schedule={schedule} />
        </div>
        <p className="text-sm text-zinc-300">
          <CronWordsText cron={schedule.cron} />
        </p>
        <div className="flex flex-wrap gap-x-6 gap-y-1">
          <RunTime label={t('last_run')} date={schedule.lastRunAt} testId="schedule-last-run" />
          <RunTime label={t('next_run')} date={schedule.nextRunAt} testId="schedule-next-run" />
        </div>
        <dl className="grid grid-cols-5 gap-2" data-testid="schedule-cron-fields">
          {CRON_CELLS.map(([field, label]) => (
            <div key={field} className="min-w-0 rounded-md bg-zinc-950/60 px-2 py-2 text-center">
              <dd className="truncate font-mono text-sm text-zinc-100" data-testid={`cron-${field}`}>
                {schedule.cron[field]}
              </dd>
              <dt className="text-[10px] tracking-wide text-zinc-500 uppercase sm:text-xs">
                {t(`fields.${label}`)}
              </dt>
            </div>
          ))}
        </dl>
        <div className="flex flex-wrap gap-2">
          {mayUpdate && (
            <Button variant="secondary" onClick={() => setEditing(true)}>
              {t('edit')}
            </Button>
          )}
          {mayUpdate && (
            <Button variant="secondary" onClick={() => setTaskModal(null)}>
              {t('new_task')}
            </Button>
          )}
          {mayDelete && (
            <Button variant="danger" onClick={() => setConfirmDelete(true)}>
              {t('delete')}
            </Button>
          )}
          {mayUpdate && (
            <Button
              className="sm:ml-auto"
              onClick={() => void runNow()}
              isLoading={busy === 'run'}
              disabled={schedule.isProcessing || schedule.tasks.length === 0}
            >
              {t('run_now')}
            </Button>
          )}
        </div>
      </section>
      <section className="space-y-3">
        <h2 className="text-sm font-semibold tracking-wide text-zinc-300 uppercase">{t('tasks_title')}</h2>
        {schedule.tasks.length === 0 ? (
          <p className="py-4 text-center text-sm text-zinc-400" data-testid="tasks-empty">
            {t('no_tasks')}
          </p>
        ) : (
          <ol className="space-y-3" aria-label={t('tasks_title')}>
            {schedule.tasks.map((task, index) => (
              <TaskRow
                key={task.id}
                task={task}
                position={index + 1}
                mayUpdate={mayUpdate}
                onEdit={setTaskModal}
                onDelete={setDeletingTask}
              />
            ))}
          </ol>
        )}
      </section>
      <ScheduleModal
        visible={editing}
        schedule={schedule}
        onSaved={(saved) => {
          cache.put(saved);
          setEditing(false);
        }}
        onDismissed={() => setEditing(false)}
      />
      <TaskModal
        visible={taskModal !== undefined}
        scheduleId={schedule.id}
        task={taskModal ?? undefined}
        onSaved={() => {
          setTaskModal(undefined);
          // Saving may move other tasks (sequence ids shift): the panel's order is the truth.
          void cache.refresh(schedule.id);
        }}
        onDismissed={() => setTaskModal(undefined)}
      />
      <ConfirmationModal
        visible={confirmDelete}
        title={t('delete_title')}
        buttonText={t('delete_confirm')}
        busy={busy === 'delete'}
        onConfirmed={() => void remove()}
        onDismissed={() => setConfirmDelete(false)}
      >
        {t('delete_text', { name: schedule.name })}
      </ConfirmationModal>
      <ConfirmationModal
        visible={deletingTask !== null}
        title={t('task_delete_title')}
        buttonText={t('task_delete_confirm')}
        busy={busy === 'task'}
        onConfirmed={() => deletingTask && void removeTask(deletingTask)}
        onDismissed={() => setDeletingTask(null)}
      >
        {t('task_delete_text')}
      </ConfirmationModal>
    </div>
  );
}
