import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { CenteredSpinner } from '../../../components/Spinner.tsx';
import { can } from '../../../lib/shared.ts';
import { useTitle } from '../../../lib/useTitle.ts';
import { useServerStore } from '../store.ts';
import { SCHEDULES_FLASH } from './flash.ts';
import { ScheduleModal } from './ScheduleModal.tsx';
import { ScheduleRow } from './ScheduleRow.tsx';
import { useScheduleCache, useSchedules } from './useSchedules.ts';

/** /server/{id}/schedules (spec 001 §2 "Schedules"): the list and the 'Create schedule' modal. */
export function SchedulesPage() {
  const { t } = useTranslation('schedules');
  const serverName = useServerStore((s) => s.server!.name);
  const permissions = useServerStore((s) => s.permissions);
  const schedules = useSchedules();
  const cache = useScheduleCache();
  const here = useLocation().pathname.replace(/\/+$/, '');
  const [creating, setCreating] = useState(false);
  useTitle(`${serverName} | ${t('title')}`);
  useEffect(() => {
    // A message left from an earlier visit no longer matches what is shown.
    useGlobalStore.getState().clearFlashes(SCHEDULES_FLASH);
  }, []);

  const loadError = schedules.error;
  useEffect(() => {
    if (loadError) flashError(SCHEDULES_FLASH, httpErrorToHuman(loadError));
  }, [loadError]);

  if (!schedules.data && (schedules.isFetching || !schedules.isError)) return <CenteredSpinner />;
  const list = schedules.data ?? [];

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold text-zinc-100">{t('title')}</h1>
      <FlashMessageRender byKey={SCHEDULES_FLASH} />
      {schedules.isError && !schedules.data ? (
        <div className="flex justify-center py-4">
          <Button variant="secondary" onClick={() => void schedules.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : list.length === 0 ? (
        <p className="py-4 text-center text-sm text-zinc-400" data-testid="schedules-empty">
          {t('empty')}
        </p>
      ) : (
        <ul className="space-y-3" aria-label={t('title')}>
          {list.map((schedule) => (
            <ScheduleRow key={schedule.id} schedule={schedule} href={`${here}/${schedule.id}`} />
          ))}
        </ul>
      )}
      {can(permissions, 'schedule.create') && (
        <div className="flex justify-end">
          <Button onClick={() => setCreating(true)} className="w-full sm:w-auto">
            {t('create_schedule')}
          </Button>
        </div>
      )}
      <ScheduleModal
        visible={creating}
        onSaved={(schedule) => {
          cache.put(schedule);
          setCreating(false);
        }}
        onDismissed={() => setCreating(false)}
      />
    </div>
  );
}
