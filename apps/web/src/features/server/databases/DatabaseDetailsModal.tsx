import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rotateDatabasePassword, type Database } from '../../../api/databases.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { CopyOnClick } from '../../../components/CopyOnClick.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { can } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { jdbcConnectionString } from './connection.ts';
import { DATABASE_DETAILS_FLASH } from './flash.ts';

/**
 * The connection-details modal (spec 001 §2, §6): endpoint, connections from, username, the
 * password only with database.view_password, the JDBC-style connection string, and Rotate Password
 * with database.update. Every value copies on click. Errors under `database-connection-modal`.
 */
export function DatabaseDetailsModal({
  database,
  onRotated,
  onDismissed,
}: {
  database: Database | null;
  onRotated: (database: Database) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('databases');
  const serverId = useServerStore((s) => s.server!.id);
  const permissions = useServerStore((s) => s.permissions);
  const [rotating, setRotating] = useState(false);
  const dismiss = () => {
    useGlobalStore.getState().clearFlashes(DATABASE_DETAILS_FLASH);
    onDismissed();
  };

  const rotate = () => {
    if (!database) return;
    useGlobalStore.getState().clearFlashes(DATABASE_DETAILS_FLASH);
    setRotating(true);
    rotateDatabasePassword(serverId, database.id)
      .then(onRotated)
      .catch((error: unknown) => flashError(DATABASE_DETAILS_FLASH, httpErrorToHuman(error)))
      .finally(() => setRotating(false));
  };

  // The panel withholds the password without the permission; the check here keeps a stale copy
  // (permissions revoked while the page is open) off the screen too.
  const password = database && can(permissions, 'database.view_password') ? database.password : undefined;
  const shown = database && { ...database, password };

  return (
    <Modal
      visible={database !== null}
      size="wide"
      title={t('details_title')}
      onDismissed={dismiss}
      showSpinnerOverlay={rotating}
    >
      {shown && (
        <div className="space-y-4">
          <FlashMessageRender byKey={DATABASE_DETAILS_FLASH} />
          <dl className="grid gap-4 text-sm sm:grid-cols-2">
            <Value label={t('endpoint')} value={shown.connectionString} testId="details-endpoint" />
            <Value label={t('connections_from')} value={shown.allowConnectionsFrom} testId="details-remote" />
            <Value label={t('username')} value={shown.username} testId="details-username" />
            {password !== undefined ? (
              <Value label={t('password')} value={password} testId="details-password" />
            ) : (
              <div>
                <dt className="text-xs font-semibold tracking-wide text-zinc-400 uppercase">
                  {t('password')}
                </dt>
                <dd className="mt-1 text-zinc-400" data-testid="details-password-hidden">
                  {t('password_hidden')}
                </dd>
              </div>
            )}
            <Value label={t('jdbc')} value={jdbcConnectionString(shown)} testId="details-jdbc" wide />
          </dl>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            {can(permissions, 'database.update') && (
              <Button variant="secondary" onClick={rotate} isLoading={rotating}>
                {t('rotate')}
              </Button>
            )}
            <Button onClick={dismiss} disabled={rotating}>
              {t('close')}
            </Button>
          </div>
        </div>
      )}
    </Modal>
  );
}

function Value({
  label,
  value,
  testId,
  wide = false,
}: {
  label: string;
  value: string;
  testId: string;
  wide?: boolean;
}) {
  return (
    <div className={`min-w-0 ${wide ? 'sm:col-span-2' : ''}`}>
      <dt className="text-xs font-semibold tracking-wide text-zinc-400 uppercase">{label}</dt>
      <dd className="mt-1">
        <CopyOnClick
          text={value}
          className="block w-full rounded-md border border-zinc-700 bg-zinc-950 px-3 py-2 font-mono text-sm break-all text-zinc-100 hover:border-zinc-500"
        >
          <span data-testid={testId}>{value}</span>
        </CopyOnClick>
      </dd>
    </div>
  );
}
