import { useTranslation } from 'react-i18next';
import type { Task } from '../../../api/schedules.ts';
import { Button } from '../../../components/Button.tsx';

/**
 * One task of a schedule (spec 001 §2, §3): its place in the chain, action, payload, time offset
 * and whether the chain continues past its failure. Edit and Delete need schedule.update.
 */
export function TaskRow({
  task,
  position,
  mayUpdate,
  onEdit,
  onDelete,
}: {
  task: Task;
  position: number;
  mayUpdate: boolean;
  onEdit: (task: Task) => void;
  onDelete: (task: Task) => void;
}) {
  const { t } = useTranslation('schedules');
  const payload =
    task.action === 'power'
      ? t(`task.power.${task.payload}`, { defaultValue: task.payload })
      : task.action === 'backup'
        ? task.payload.trim() === ''
          ? t('task.ignored_none')
          : `${t('task.ignored_label')}: ${task.payload.trim().split('\n').join(', ')}`
        : task.payload;
  return (
    <li
      data-testid={`task-${task.id}`}
      className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-zinc-800 bg-zinc-900/80 p-4"
    >
      <span
        aria-label={t('task.position', { position })}
        className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-zinc-800 text-xs font-semibold text-zinc-300"
      >
        {position}
      </span>
      <div className="min-w-0 flex-1 basis-48">
        <p className="text-sm font-medium text-zinc-100" data-testid="task-action">
          {t(`task.action.${task.action}`)}
        </p>
        <p
          data-testid="task-payload"
          className={`text-sm break-all text-zinc-300 ${task.action === 'command' ? 'font-mono' : ''}`}
        >
          {payload}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <span
          data-testid="task-offset"
          title={t('task.offset_label', { seconds: task.timeOffset })}
          className="rounded-full bg-zinc-800 px-2.5 py-0.5 text-xs text-zinc-300"
        >
          {t('task.offset', { seconds: task.timeOffset })}
        </span>
        {task.continueOnFailure && (
          <span
            data-testid="task-continues"
            className="rounded-full bg-sky-500/15 px-2.5 py-0.5 text-xs text-sky-300 ring-1 ring-sky-500/40"
          >
            {t('task.continues')}
          </span>
        )}
        {task.isQueued && (
          <span className="rounded-full bg-amber-500/15 px-2.5 py-0.5 text-xs text-amber-300 ring-1 ring-amber-500/40">
            {t('task.queued')}
          </span>
        )}
      </div>
      {mayUpdate && (
        <div className="ml-auto flex gap-2">
          <Button
            variant="secondary"
            onClick={() => onEdit(task)}
            aria-label={t('task.edit_label', { position })}
          >
            {t('edit')}
          </Button>
          <Button
            variant="danger"
            onClick={() => onDelete(task)}
            aria-label={t('task.delete_label', { position })}
          >
            {t('delete')}
          </Button>
        </div>
      )}
    </li>
  );
}
