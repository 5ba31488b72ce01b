import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { createDirectorySchema, type CreateDirectoryValues } from '@talon/shared/validation/files';
import { createDirectory } from '../../../api/files.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { useServerStore } from '../store.ts';
import { DIRECTORY_MODAL_FLASH } from './flash.ts';
import { CONTAINER_ROOT, joinPath } from './paths.ts';

/** Create Directory (spec 001 §2, §5): a required name; errors stay inside the modal. */
export function CreateDirectoryModal({
  visible,
  directory,
  onCreated,
  onDismissed,
}: {
  visible: boolean;
  directory: string;
  onCreated: (name: string) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('files');
  const dismiss = () => {
    useGlobalStore.getState().clearFlashes(DIRECTORY_MODAL_FLASH);
    onDismissed();
  };
  return (
    <Modal visible={visible} title={t('directory.title')} onDismissed={dismiss}>
      <CreateDirectoryForm directory={directory} onCreated={onCreated} onCancel={dismiss} />
    </Modal>
  );
}

function CreateDirectoryForm({
  directory,
  onCreated,
  onCancel,
}: {
  directory: string;
  onCreated: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('files');
  const serverId = useServerStore((s) => s.server!.id);
  const { register, handleSubmit, formState, watch } = useForm<CreateDirectoryValues>({
    resolver: zodResolver(createDirectorySchema),
    mode: 'onTouched',
    defaultValues: { name: '' },
  });
  const { errors, touchedFields, isSubmitting, isSubmitted } = formState;
  const name = watch('name').trim();

  const onSubmit = async (values: CreateDirectoryValues) => {
    useGlobalStore.getState().clearFlashes(DIRECTORY_MODAL_FLASH);
    try {
      await createDirectory(serverId, directory, values.name);
    } catch (error) {
      flashError(DIRECTORY_MODAL_FLASH, httpErrorToHuman(error));
      return;
    }
    onCreated(values.name);
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
      <FlashMessageRender byKey={DIRECTORY_MODAL_FLASH} />
      <TextField
        label={t('directory.name')}
        autoComplete="off"
        error={errors.name?.message}
        touched={touchedFields.name || isSubmitted}
        {...register('name')}
      />
      <p className="text-xs break-all text-zinc-400">
        {t('directory.will_create')}{' '}
        <code className="rounded bg-zinc-800 px-1 py-0.5 text-zinc-200">
          {`${CONTAINER_ROOT}${joinPath(directory, name)}`.replace(/\/$/, '')}
        </code>
      </p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          {t('common:modal.cancel')}
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          {t('directory.submit')}
        </Button>
      </div>
    </form>
  );
}
