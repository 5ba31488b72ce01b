import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  DATABASE_DEFAULT_REMOTE,
  databaseNameError,
  databaseRemoteError,
} from '@talon/shared/validation/databases';
import { createDatabase, type Database } from '../../../api/databases.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { useServerStore } from '../store.ts';
import { DATABASE_CREATE_FLASH } from './flash.ts';

interface Fields {
  databaseName: string;
  connectionsFrom: string;
}

/** The 'New Database' modal (spec 001 §2, §5): name and connections-from (default %). Errors under `database:create`. */
export function CreateDatabaseModal({
  visible,
  onCreated,
  onDismissed,
}: {
  visible: boolean;
  onCreated: (database: Database) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('databases');
  const dismiss = () => {
    useGlobalStore.getState().clearFlashes(DATABASE_CREATE_FLASH);
    onDismissed();
  };
  return (
    <Modal visible={visible} title={t('create_title')} onDismissed={dismiss}>
      <CreateDatabaseForm onCreated={onCreated} onCancel={dismiss} />
    </Modal>
  );
}

function CreateDatabaseForm({
  onCreated,
  onCancel,
}: {
  onCreated: (database: Database) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('databases');
  const serverId = useServerStore((s) => s.server!.id);
  const { register, handleSubmit, formState } = useForm<Fields>({
    mode: 'onTouched',
    defaultValues: { databaseName: '', connectionsFrom: DATABASE_DEFAULT_REMOTE },
  });
  const { errors, touchedFields, isSubmitting, isSubmitted } = formState;

  const onSubmit = async (values: Fields) => {
    useGlobalStore.getState().clearFlashes(DATABASE_CREATE_FLASH);
    try {
      onCreated(
        await createDatabase(serverId, { database: values.databaseName, remote: values.connectionsFrom }),
      );
    } catch (error) {
      flashError(DATABASE_CREATE_FLASH, httpErrorToHuman(error));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
      <FlashMessageRender byKey={DATABASE_CREATE_FLASH} />
      <TextField
        label={t('name')}
        hint={t('name_hint')}
        autoComplete="off"
        spellCheck={false}
        error={errors.databaseName?.message}
        touched={touchedFields.databaseName || isSubmitted}
        {...register('databaseName', { validate: (value) => databaseNameError(value) ?? true })}
      />
      <TextField
        label={t('remote')}
        hint={t('remote_hint')}
        autoComplete="off"
        spellCheck={false}
        error={errors.connectionsFrom?.message}
        touched={touchedFields.connectionsFrom || isSubmitted}
        {...register('connectionsFrom', { validate: (value) => databaseRemoteError(value) ?? true })}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          {t('cancel')}
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          {t('create')}
        </Button>
      </div>
    </form>
  );
}
