import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Database } from '../../../api/databases.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { CenteredSpinner } from '../../../components/Spinner.tsx';
import { can } from '../../../lib/shared.ts';
import { useTitle } from '../../../lib/useTitle.ts';
import { useServerStore } from '../store.ts';
import { CreateDatabaseModal } from './CreateDatabaseModal.tsx';
import { DatabaseDetailsModal } from './DatabaseDetailsModal.tsx';
import { DatabaseRow } from './DatabaseRow.tsx';
import { DeleteDatabaseModal } from './DeleteDatabaseModal.tsx';
import { DATABASES_FLASH } from './flash.ts';
import { useDatabases, useDatabasesCache } from './useDatabases.ts';

/**
 * /server/{id}/databases (spec 001 §2 "Databases", §9): the list, 'New Database' while below the
 * limit (`feature_limits.databases`: null is unlimited, 0 none), the details and delete modals.
 */
export function DatabasesPage() {
  const { t } = useTranslation('databases');
  const serverName = useServerStore((s) => s.server!.name);
  const limit = useServerStore((s) => s.server!.featureLimits.databases as number | null);
  const permissions = useServerStore((s) => s.permissions);
  const databases = useDatabases();
  const updateList = useDatabasesCache();
  const [creating, setCreating] = useState(false);
  // Ids, not copies: the modals show the cached row, so a rotation shows at once.
  const [detailsId, setDetailsId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Database | null>(null);
  useTitle(`${serverName} | ${t('title')}`);
  useEffect(() => {
    // A message left from an earlier visit no longer matches what is shown.
    useGlobalStore.getState().clearFlashes(DATABASES_FLASH);
  }, []);

  // A failed load is said under the screen's key (spec 001 §8), with a way to try again.
  const loadError = databases.error;
  useEffect(() => {
    if (loadError) flashError(DATABASES_FLASH, httpErrorToHuman(loadError));
  }, [loadError]);

  if (!databases.data && (databases.isFetching || !databases.isError)) return <CenteredSpinner />;
  const list = databases.data ?? [];
  const details = list.find((d) => d.id === detailsId) ?? null;
  const belowLimit = limit === null || list.length < limit;

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold text-zinc-100">{t('title')}</h1>
      <FlashMessageRender byKey={DATABASES_FLASH} />
      {databases.isError ? (
        <div className="flex justify-center py-4">
          <Button variant="secondary" onClick={() => void databases.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : list.length === 0 ? (
        <p className="py-4 text-center text-sm text-zinc-400" data-testid="databases-empty">
          {limit === 0 ? t('none_allowed') : t('empty')}
        </p>
      ) : (
        <ul className="space-y-3" aria-label={t('title')}>
          {list.map((database) => (
            <DatabaseRow
              key={database.id}
              database={database}
              mayDelete={can(permissions, 'database.delete')}
              onDetails={(d) => setDetailsId(d.id)}
              onDelete={setDeleting}
            />
          ))}
        </ul>
      )}
      {!databases.isError && (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-end sm:gap-6">
          {limit !== null && limit > 0 && (
            <p className="text-sm text-zinc-400" data-testid="databases-limit">
              {t('limit', { used: list.length, limit })}
            </p>
          )}
          {/* A limit lowered to 0 after databases were made: the list stays, creating does not. */}
          {limit === 0 && list.length > 0 && (
            <p className="text-sm text-zinc-400" data-testid="databases-limit">
              {t('none_allowed')}
            </p>
          )}
          {limit !== 0 && belowLimit && can(permissions, 'database.create') && (
            <Button onClick={() => setCreating(true)} className="w-full sm:w-auto">
              {t('new_database')}
            </Button>
          )}
        </div>
      )}
      <CreateDatabaseModal
        visible={creating}
        onCreated={(database) => {
          updateList((current) => [...current, database]);
          setCreating(false);
        }}
        onDismissed={() => setCreating(false)}
      />
      <DatabaseDetailsModal
        database={details}
        onRotated={(rotated) =>
          updateList((current) => current.map((d) => (d.id === rotated.id ? rotated : d)))
        }
        onDismissed={() => setDetailsId(null)}
      />
      <DeleteDatabaseModal
        database={deleting}
        onDeleted={(deleted) => {
          updateList((current) => current.filter((d) => d.id !== deleted.id));
          setDeleting(null);
        }}
        onDismissed={() => setDeleting(null)}
      />
    </div>
  );
}
