import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { createBackup } from '../../../api/backups.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { TextAreaField, TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { can } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { BACKUPS_CREATE_FLASH } from './flash.ts';

/**
 * The longest backup name (spec 001 §5, §9). The shared BACKUP_NAME_MAX sits in a module built on
 * zod, which must stay out of the web app's bundles (the sign-in chunk's size budget).
 */
export const BACKUP_NAME_MAX = 191;

interface Fields {
  name: string;
  ignored: string;
}

/**
 * The 'Create backup' modal (spec 001 §5): a name (at most 191 characters), ignored patterns (one a
 * line; blank uses the server's ignore file), and the Locked switch, shown only with backup.delete.
 * The panel's refusals are shown inside it under `backups:create`.
 */
export function CreateBackupModal({
  visible,
  onCreated,
  onDismissed,
}: {
  visible: boolean;
  onCreated: () => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('backups');
  const dismiss = () => {
    useGlobalStore.getState().clearFlashes(BACKUPS_CREATE_FLASH);
    onDismissed();
  };
  return (
    <Modal visible={visible} title={t('form.title')} onDismissed={dismiss}>
      <CreateBackupForm onCreated={onCreated} onCancel={dismiss} />
    </Modal>
  );
}

function CreateBackupForm({ onCreated, onCancel }: { onCreated: () => void; onCancel: () => void }) {
  const { t } = useTranslation('backups');
  const switchId = useId();
  const serverId = useServerStore((s) => s.server!.id);
  const mayLock = useServerStore((s) => can(s.permissions, 'backup.delete'));
  const [locked, setLocked] = useState(false);
  const { register, handleSubmit, formState } = useForm<Fields>({
    mode: 'onTouched',
    defaultValues: { name: '', ignored: '' },
  });
  const { errors, touchedFields, isSubmitting, isSubmitted } = formState;

  const onSubmit = async (values: Fields) => {
    useGlobalStore.getState().clearFlashes(BACKUPS_CREATE_FLASH);
    try {
      await createBackup(serverId, {
        name: values.name,
        ignored: values.ignored,
        isLocked: mayLock && locked,
      });
      onCreated();
    } catch (error) {
      flashError(BACKUPS_CREATE_FLASH, httpErrorToHuman(error));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
      <FlashMessageRender byKey={BACKUPS_CREATE_FLASH} />
      <TextField
        label={t('form.name')}
        autoComplete="off"
        hint={t('form.name_hint')}
        error={errors.name?.message}
        touched={touchedFields.name || isSubmitted}
        {...register('name', {
          validate: (value) => value.length <= BACKUP_NAME_MAX || t('form.name_max'),
        })}
      />
      <TextAreaField
        label={t('form.ignored')}
        hint={t('form.ignored_hint')}
        rows={5}
        spellCheck={false}
        placeholder={'logs/\n*.tmp\n!logs/keep.log'}
        {...register('ignored')}
      />
      {mayLock && (
        <div className="space-y-1">
          <span
            id={`${switchId}-label`}
            className="block text-xs font-semibold tracking-wide text-zinc-300 uppercase"
          >
            {t('form.locked')}
          </span>
          <button
            type="button"
            role="switch"
            aria-checked={locked}
            aria-labelledby={`${switchId}-label`}
            aria-describedby={`${switchId}-hint`}
            onClick={() => setLocked(!locked)}
            className="focus-ring inline-flex items-center gap-3 rounded-md py-1 text-sm text-zinc-200"
          >
            <span
              aria-hidden="true"
              className={`relative inline-flex h-6 w-11 shrink-0 rounded-full border transition-colors ${
                locked ? 'border-sky-500 bg-sky-600' : 'border-zinc-600 bg-zinc-800'
              }`}
            >
              <span
                className={`absolute top-0.5 h-4.5 w-4.5 rounded-full bg-white shadow transition-transform ${
                  locked ? 'translate-x-5.5' : 'translate-x-0.5'
                }`}
              />
            </span>
            {locked ? t('form.on') : t('form.off')}
          </button>
          <p id={`${switchId}-hint`} className="text-xs text-zinc-400">
            {t('form.locked_hint')}
          </p>
        </div>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          {t('form.cancel')}
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          {t('form.submit')}
        </Button>
      </div>
    </form>
  );
}
