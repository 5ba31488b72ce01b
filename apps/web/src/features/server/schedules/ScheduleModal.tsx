import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { saveSchedule, type Cron, type Schedule } from '../../../api/schedules.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { useServerStore } from '../store.ts';
import { SCHEDULE_EDIT_FLASH } from './flash.ts';
import { Switch } from './Switch.tsx';

/** The longest name the panel takes (shared SCHEDULE_NAME_MAX; not imported: the module brings zod). */
const NAME_MAX = 191;

/** Defaults of a new schedule (spec 001 §5). */
export const NEW_SCHEDULE = {
  name: '',
  cron: { minute: '*/5', hour: '*', dayOfMonth: '*', month: '*', dayOfWeek: '*' } satisfies Cron,
  isActive: true,
  onlyWhenOnline: true,
};

const CRON_FIELDS = ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const;
const FIELD_LABEL = {
  minute: 'minute',
  hour: 'hour',
  dayOfMonth: 'day_of_month',
  month: 'month',
  dayOfWeek: 'day_of_week',
} as const;

type Fields = { name: string } & Cron;

/**
 * 'Create schedule' (no `schedule`) or Edit: name, the five cron fields, only-when-online and
 * enabled. The panel checks the cron; its answer shows under `schedule:edit` (spec 001 §8).
 */
export function ScheduleModal({
  visible,
  schedule,
  onSaved,
  onDismissed,
}: {
  visible: boolean;
  schedule?: Schedule;
  onSaved: (schedule: Schedule) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('schedules');
  const dismiss = () => {
    useGlobalStore.getState().clearFlashes(SCHEDULE_EDIT_FLASH);
    onDismissed();
  };
  return (
    <Modal
      visible={visible}
      title={schedule ? t('schedule_modal.edit_title') : t('schedule_modal.create_title')}
      onDismissed={dismiss}
      size="wide"
    >
      <ScheduleForm schedule={schedule} onSaved={onSaved} onCancel={dismiss} />
    </Modal>
  );
}

function ScheduleForm({
  schedule,
  onSaved,
  onCancel,
}: {
  schedule?: Schedule;
  onSaved: (schedule: Schedule) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('schedules');
  const serverId = useServerStore((s) => s.server!.id);
  const start = schedule ?? NEW_SCHEDULE;
  const { register, handleSubmit, formState } = useForm<Fields>({
    defaultValues: { name: start.name, ...start.cron },
  });
  const [isActive, setActive] = useState(start.isActive);
  const [onlyWhenOnline, setOnlyWhenOnline] = useState(start.onlyWhenOnline);

  const onSubmit = async ({ name, ...cron }: Fields) => {
    useGlobalStore.getState().clearFlashes(SCHEDULE_EDIT_FLASH);
    try {
      onSaved(await saveSchedule(serverId, { name, cron, isActive, onlyWhenOnline }, schedule?.id));
    } catch (error) {
      flashError(SCHEDULE_EDIT_FLASH, httpErrorToHuman(error));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
      <FlashMessageRender byKey={SCHEDULE_EDIT_FLASH} />
      <TextField
        label={t('schedule_modal.name')}
        hint={t('schedule_modal.name_hint')}
        autoComplete="off"
        maxLength={NAME_MAX}
        {...register('name')}
      />
      <div>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          {CRON_FIELDS.map((field) => (
            <TextField
              key={field}
              label={t(`fields.${FIELD_LABEL[field]}`)}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              {...register(field)}
            />
          ))}
        </div>
        <p className="mt-2 text-xs text-zinc-400">{t('schedule_modal.cron_hint')}</p>
      </div>
      <Switch
        label={t('schedule_modal.only_when_online')}
        hint={t('schedule_modal.only_when_online_hint')}
        checked={onlyWhenOnline}
        onChange={setOnlyWhenOnline}
      />
      <Switch
        label={t('schedule_modal.enabled')}
        hint={t('schedule_modal.enabled_hint')}
        checked={isActive}
        onChange={setActive}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={formState.isSubmitting}>
          {t('schedule_modal.cancel')}
        </Button>
        <Button type="submit" isLoading={formState.isSubmitting}>
          {schedule ? t('schedule_modal.save') : t('schedule_modal.create')}
        </Button>
      </div>
    </form>
  );
}
