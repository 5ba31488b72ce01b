import { useEffect, useId, useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ActivityEvent, ActivityQuery } from '../../../api/activity.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import type { Paginated } from '../../../api/types.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { CenteredSpinner } from '../../../components/Spinner.tsx';
// The account pages use this list too: they get the styles of the screens they borrow from.
import '../server.css';
import { ActivityRow } from './ActivityRow.tsx';

/**
 * An activity log (server or account): newest first, filtered by part of an event name, one page
 * at a time. Load errors are shown under `flashKey`.
 */
export function ActivityLog({
  queryKey,
  load,
  flashKey,
}: {
  queryKey: readonly unknown[];
  load: (query: ActivityQuery) => Promise<Paginated<ActivityEvent>>;
  flashKey: string;
}) {
  const { t } = useTranslation('activity');
  const inputId = useId();
  const [page, setPage] = useState(1);
  const [event, setEvent] = useState('');
  const [typed, setTyped] = useState('');
  const query = useQuery({
    queryKey: [...queryKey, { page, event }],
    queryFn: () => load({ page, event }),
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
  });

  const loadError = query.error;
  useEffect(() => {
    if (loadError) flashError(flashKey, httpErrorToHuman(loadError));
    else useGlobalStore.getState().clearFlashes(flashKey);
  }, [loadError, flashKey]);

  const applyFilter = (next: string) => {
    setTyped(next);
    setEvent(next.trim());
    setPage(1);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    applyFilter(typed);
  };

  const data = query.data;
  const totalPages = Math.max(1, data?.pagination.totalPages ?? 1);
  const currentPage = data?.pagination.currentPage ?? page;

  return (
    <div className="space-y-4">
      <form onSubmit={submit} role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1 space-y-1">
          <label
            htmlFor={inputId}
            className="block text-xs font-semibold tracking-wide text-zinc-300 uppercase"
          >
            {t('filter_label')}
          </label>
          <input
            id={inputId}
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            placeholder={t('filter_placeholder')}
            aria-describedby={`${inputId}-hint`}
            autoComplete="off"
            spellCheck={false}
            className="focus-ring block w-full rounded-md border border-zinc-700 bg-zinc-900 px-3 py-2 font-mono text-sm text-zinc-100 placeholder-zinc-500 hover:border-zinc-500"
          />
          <p id={`${inputId}-hint`} className="text-xs text-zinc-400">
            {t('filter_hint')}
          </p>
        </div>
        <div className="flex gap-2 sm:mb-5">
          <Button type="submit">{t('filter_apply')}</Button>
          {event !== '' && (
            <Button variant="secondary" onClick={() => applyFilter('')}>
              {t('filter_clear')}
            </Button>
          )}
        </div>
      </form>
      <FlashMessageRender byKey={flashKey} />
      {query.isError && !data ? (
        <div className="flex justify-center py-4">
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : !data ? (
        <CenteredSpinner />
      ) : data.items.length === 0 ? (
        <p className="py-4 text-center text-sm text-zinc-400" data-testid="activity-empty">
          {event ? t('empty_filtered') : t('empty')}
        </p>
      ) : (
        <ul
          className={`divide-y divide-zinc-800 rounded-lg border border-zinc-800 bg-zinc-900/80 px-4 ${query.isPlaceholderData ? 'opacity-60' : ''}`}
          aria-busy={query.isFetching}
          data-testid="activity-list"
        >
          {data.items.map((item) => (
            <ActivityRow key={item.id} event={item} onFilter={applyFilter} />
          ))}
        </ul>
      )}
      {totalPages > 1 && (
        <nav aria-label={t('pagination')} className="flex items-center justify-between gap-2">
          <Button variant="secondary" disabled={currentPage <= 1} onClick={() => setPage(currentPage - 1)}>
            {t('previous')}
          </Button>
          <span className="text-sm text-zinc-400" aria-live="polite">
            {t('page', { page: currentPage, total: totalPages })}
          </span>
          <Button
            variant="secondary"
            disabled={currentPage >= totalPages}
            onClick={() => setPage(currentPage + 1)}
          >
            {t('next')}
          </Button>
        </nav>
      )}
    </div>
  );
}
