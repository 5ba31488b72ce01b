import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { deleteSubuser, type Subuser } from '../../../api/subusers.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { ConfirmationModal } from '../../../components/ConfirmationModal.tsx';
import { CenteredSpinner } from '../../../components/Spinner.tsx';
import { can } from '../../../lib/shared.ts';
import { useTitle } from '../../../lib/useTitle.ts';
import { useServerStore } from '../store.ts';
import { USERS_FLASH } from './flash.ts';
import { SubuserModal } from './SubuserModal.tsx';
import { SubuserRow } from './SubuserRow.tsx';
import { useSubusers, useSubusersCache } from './useSubusers.ts';

/** The modal's state: closed, creating, or showing one subuser. */
type Editing = { open: false } | { open: true; subuser: Subuser | null };

/** /server/{id}/users (spec 001 §2 "Users"): the subusers, 'New User' and the create/edit modal. */
export function UsersPage() {
  const { t } = useTranslation('users');
  const serverId = useServerStore((s) => s.server!.id);
  const serverName = useServerStore((s) => s.server!.name);
  const permissions = useServerStore((s) => s.permissions);
  const selfUuid = useGlobalStore((s) => s.user?.uuid ?? null);
  const subusers = useSubusers();
  const updateList = useSubusersCache();
  const [editing, setEditing] = useState<Editing>({ open: false });
  const [deleting, setDeleting] = useState<Subuser | null>(null);
  const [busy, setBusy] = useState(false);
  useTitle(`${serverName} | ${t('title')}`);
  useEffect(() => {
    // A message left from an earlier visit no longer matches what is shown.
    useGlobalStore.getState().clearFlashes(USERS_FLASH);
  }, []);

  const saved = (subuser: Subuser, created: boolean) => {
    updateList((list) =>
      created ? [...list, subuser] : list.map((s) => (s.uuid === subuser.uuid ? subuser : s)),
    );
    setEditing({ open: false });
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const target = deleting;
    useGlobalStore.getState().clearFlashes(USERS_FLASH);
    setBusy(true);
    deleteSubuser(serverId, target.uuid)
      .then(() => updateList((list) => list.filter((s) => s.uuid !== target.uuid)))
      .catch((error: unknown) => flashError(USERS_FLASH, httpErrorToHuman(error)))
      .finally(() => {
        setBusy(false);
        setDeleting(null);
      });
  };

  // A failed load is said under the screen's key (spec 001 §8), with a way to try again.
  const loadError = subusers.error;
  useEffect(() => {
    if (loadError) flashError(USERS_FLASH, httpErrorToHuman(loadError));
  }, [loadError]);

  if (!subusers.data && (subusers.isFetching || !subusers.isError)) return <CenteredSpinner />;
  const list = subusers.data ?? [];

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h1 className="text-xl font-semibold text-zinc-100">{t('title')}</h1>
        {can(permissions, 'user.create') && (
          <Button onClick={() => setEditing({ open: true, subuser: null })} className="w-full sm:w-auto">
            {t('new_user')}
          </Button>
        )}
      </div>
      <FlashMessageRender byKey={USERS_FLASH} />
      {subusers.isError ? (
        <div className="flex justify-center py-4">
          <Button variant="secondary" onClick={() => void subusers.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : list.length === 0 ? (
        <p className="py-4 text-center text-sm text-zinc-400">{t('empty')}</p>
      ) : (
        <ul className="space-y-3" aria-label={t('title')}>
          {list.map((subuser) => (
            <SubuserRow
              key={subuser.uuid}
              subuser={subuser}
              isSelf={subuser.uuid === selfUuid}
              mayUpdate={can(permissions, 'user.update')}
              mayDelete={can(permissions, 'user.delete')}
              onEdit={(s) => setEditing({ open: true, subuser: s })}
              onDelete={setDeleting}
            />
          ))}
        </ul>
      )}
      <SubuserModal
        visible={editing.open}
        subuser={editing.open ? editing.subuser : null}
        onSaved={saved}
        onDismissed={() => setEditing({ open: false })}
      />
      <ConfirmationModal
        visible={deleting !== null}
        title={t('delete_title')}
        buttonText={t('delete_confirm')}
        onConfirmed={confirmDelete}
        onDismissed={() => setDeleting(null)}
        busy={busy}
      >
        {t('delete_text', { email: deleting?.email ?? '' })}
      </ConfirmationModal>
    </div>
  );
}
