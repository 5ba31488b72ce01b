import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { saveTask, type Task, type TaskAction } from '../../../api/schedules.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { TextAreaField, TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { useServerStore } from '../store.ts';
import { SCHEDULE_TASK_FLASH } from './flash.ts';
import {
  backupLimitError,
  payloadError,
  payloadFor,
  taskFields,
  timeOffsetError,
  type TaskFields,
} from './taskForm.ts';

const ACTIONS: TaskAction[] = ['command', 'power', 'backup'];
const POWER = ['start', 'restart', 'stop', 'kill'] as const;
const SELECT =
  'focus-ring block w-full rounded-md border bg-zinc-900 px-3 py-2 text-sm text-zinc-100 hover:border-zinc-500';
const LABEL = 'block text-xs font-semibold tracking-wide text-zinc-300 uppercase';

/**
 * New Task (no `task`) or a task's edit: action, payload (a command, a power action or a backup's
 * ignored files), time offset and continue-on-failure (spec 001 §5). Errors under `schedule:task`.
 */
export function TaskModal({
  visible,
  scheduleId,
  task,
  onSaved,
  onDismissed,
}: {
  visible: boolean;
  scheduleId: number;
  task?: Task;
  onSaved: (task: Task) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('schedules');
  const dismiss = () => {
    useGlobalStore.getState().clearFlashes(SCHEDULE_TASK_FLASH);
    onDismissed();
  };
  return (
    <Modal
      visible={visible}
      title={task ? t('task_modal.edit_title') : t('task_modal.create_title')}
      onDismissed={dismiss}
    >
      <TaskForm scheduleId={scheduleId} task={task} onSaved={onSaved} onCancel={dismiss} />
    </Modal>
  );
}

function TaskForm({
  scheduleId,
  task,
  onSaved,
  onCancel,
}: {
  scheduleId: number;
  task?: Task;
  onSaved: (task: Task) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('schedules');
  const id = useId();
  const serverId = useServerStore((s) => s.server!.id);
  const backupLimit = useServerStore((s) => s.server!.featureLimits.backups as number | null);
  const { register, handleSubmit, formState, watch, setValue } = useForm<TaskFields>({
    mode: 'onTouched',
    defaultValues: taskFields(task),
  });
  const { errors, touchedFields, isSubmitting, isSubmitted } = formState;
  const action = watch('action');
  const limitError = backupLimitError(action, backupLimit);

  const onSubmit = async (values: TaskFields) => {
    useGlobalStore.getState().clearFlashes(SCHEDULE_TASK_FLASH);
    if (limitError) return;
    try {
      onSaved(
        await saveTask(
          serverId,
          scheduleId,
          {
            action: values.action,
            payload: values.action === 'backup' ? values.payload : values.payload.trim(),
            timeOffset: Number(values.timeOffset.trim()),
            continueOnFailure: values.continueOnFailure,
          },
          task?.id,
        ),
      );
    } catch (error) {
      flashError(SCHEDULE_TASK_FLASH, httpErrorToHuman(error));
    }
  };

  const payloadRules = {
    validate: (value: string) => payloadError(watch('action'), value) ?? true,
  };
  const actionField = register('action', {
    // Another action starts from its own payload (spec 001 §5): start for power, empty otherwise.
    onChange: (event: { target: { value: string } }) =>
      setValue('payload', payloadFor(event.target.value as TaskAction), { shouldValidate: false }),
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
      <FlashMessageRender byKey={SCHEDULE_TASK_FLASH} />
      <div className="space-y-1">
        <label htmlFor={`${id}-action`} className={LABEL}>
          {t('task_modal.action')}
        </label>
        <select
          id={`${id}-action`}
          aria-invalid={Boolean(limitError)}
          aria-describedby={limitError ? `${id}-action-error` : undefined}
          className={`${SELECT} ${limitError ? 'border-red-500' : 'border-zinc-700'}`}
          {...actionField}
        >
          {ACTIONS.map((value) => (
            <option key={value} value={value}>
              {t(`task.action.${value}`)}
            </option>
          ))}
        </select>
        {limitError && (
          <p id={`${id}-action-error`} role="alert" className="text-xs text-red-400">
            {limitError}
          </p>
        )}
      </div>
      {action === 'command' && (
        <TextField
          label={t('task_modal.command')}
          hint={t('task_modal.command_hint')}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          error={errors.payload?.message}
          touched={touchedFields.payload || isSubmitted}
          {...register('payload', payloadRules)}
        />
      )}
      {action === 'power' && (
        <div className="space-y-1">
          <label htmlFor={`${id}-power`} className={LABEL}>
            {t('task_modal.power')}
          </label>
          <select
            id={`${id}-power`}
            className={`${SELECT} border-zinc-700`}
            {...register('payload', payloadRules)}
          >
            {POWER.map((value) => (
              <option key={value} value={value}>
                {t(`task.power.${value}`)}
              </option>
            ))}
          </select>
        </div>
      )}
      {action === 'backup' && (
        <TextAreaField
          label={t('task_modal.ignored')}
          hint={t('task_modal.ignored_hint')}
          rows={4}
          spellCheck={false}
          placeholder={'logs/\n*.tmp'}
          {...register('payload')}
        />
      )}
      <TextField
        label={t('task_modal.offset')}
        hint={t('task_modal.offset_hint')}
        inputMode="numeric"
        autoComplete="off"
        error={errors.timeOffset?.message}
        touched={touchedFields.timeOffset || isSubmitted}
        {...register('timeOffset', { validate: (value) => timeOffsetError(value) ?? true })}
      />
      <label className="flex items-start gap-3 text-sm text-zinc-100">
        <input
          type="checkbox"
          className="focus-ring mt-0.5 h-4 w-4 rounded border-zinc-600 bg-zinc-800 accent-sky-600"
          aria-describedby={`${id}-continue-hint`}
          {...register('continueOnFailure')}
        />
        <span>
          <span className="font-medium">{t('task_modal.continue_on_failure')}</span>
          <span id={`${id}-continue-hint`} className="block text-xs text-zinc-400">
            {t('task_modal.continue_on_failure_hint')}
          </span>
        </span>
      </label>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          {t('task_modal.cancel')}
        </Button>
        <Button type="submit" isLoading={isSubmitting} disabled={Boolean(limitError)}>
          {task ? t('task_modal.save') : t('task_modal.create')}
        </Button>
      </div>
    </form>
  );
}
