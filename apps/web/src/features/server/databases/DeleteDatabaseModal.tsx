import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DATABASE_VALIDATION_MESSAGES, databaseDeleteConfirmed } from '@talon/shared/validation/databases';
import { deleteDatabase, type Database } from '../../../api/databases.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { useServerStore } from '../store.ts';
import { DATABASE_DELETE_FLASH } from './flash.ts';

/**
 * The delete-confirm modal (spec 001 §2, §5): the name after its first underscore, or the full
 * name, must be typed. Errors under `database:delete`.
 */
export function DeleteDatabaseModal({
  database,
  onDeleted,
  onDismissed,
}: {
  database: Database | null;
  onDeleted: (database: Database) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('databases');
  const [busy, setBusy] = useState(false);
  const dismiss = () => {
    useGlobalStore.getState().clearFlashes(DATABASE_DELETE_FLASH);
    onDismissed();
  };
  return (
    <Modal
      visible={database !== null}
      title={t('delete_title')}
      onDismissed={dismiss}
      showSpinnerOverlay={busy}
    >
      {database && (
        <DeleteForm
          key={database.id}
          database={database}
          onDeleted={onDeleted}
          onCancel={dismiss}
          setBusy={setBusy}
        />
      )}
    </Modal>
  );
}

function DeleteForm({
  database,
  onDeleted,
  onCancel,
  setBusy,
}: {
  database: Database;
  onDeleted: (database: Database) => void;
  onCancel: () => void;
  setBusy: (busy: boolean) => void;
}) {
  const { t } = useTranslation('databases');
  const serverId = useServerStore((s) => s.server!.id);
  const { register, handleSubmit, formState, watch } = useForm<{ confirm: string }>({
    mode: 'onTouched',
    defaultValues: { confirm: '' },
  });
  const { errors, touchedFields, isSubmitting, isSubmitted } = formState;
  const confirmed = databaseDeleteConfirmed(database.name, watch('confirm'));
  const underscore = database.name.indexOf('_');
  const short = underscore === -1 ? database.name : database.name.slice(underscore + 1);

  const onSubmit = async () => {
    useGlobalStore.getState().clearFlashes(DATABASE_DELETE_FLASH);
    setBusy(true);
    try {
      await deleteDatabase(serverId, database.id);
      useGlobalStore.getState().clearFlashes(DATABASE_DELETE_FLASH);
      onDeleted(database);
    } catch (error) {
      flashError(DATABASE_DELETE_FLASH, httpErrorToHuman(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
      <FlashMessageRender byKey={DATABASE_DELETE_FLASH} />
      <p className="text-sm break-words text-zinc-300">{t('delete_text', { name: database.name })}</p>
      <TextField
        label={t('confirm_name')}
        hint={t('confirm_hint', { short })}
        autoComplete="off"
        spellCheck={false}
        error={errors.confirm?.message}
        touched={touchedFields.confirm || isSubmitted}
        {...register('confirm', {
          validate: (value) =>
            databaseDeleteConfirmed(database.name, value) || DATABASE_VALIDATION_MESSAGES.deleteConfirm,
        })}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          {t('cancel')}
        </Button>
        <Button type="submit" variant="danger" isLoading={isSubmitting} disabled={!confirmed}>
          {t('delete_confirm')}
        </Button>
      </div>
    </form>
  );
}
