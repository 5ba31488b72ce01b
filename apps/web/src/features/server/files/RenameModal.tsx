import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { renameFileSchema, type RenameFileValues } from '@talon/shared/validation/files';
import type { FileEntry } from '../../../api/files.ts';
import { Button } from '../../../components/Button.tsx';
import { TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';

/** Rename: a new name in the same folder. The list changes as soon as it is submitted. */
export function RenameModal({
  entry,
  visible,
  onRename,
  onDismissed,
}: {
  entry: FileEntry;
  visible: boolean;
  onRename: (name: string) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('files');
  return (
    <Modal visible={visible} title={t('rename.title', { name: entry.name })} onDismissed={onDismissed}>
      <RenameForm entry={entry} onRename={onRename} onCancel={onDismissed} />
    </Modal>
  );
}

function RenameForm({
  entry,
  onRename,
  onCancel,
}: {
  entry: FileEntry;
  onRename: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('files');
  const { register, handleSubmit, formState } = useForm<RenameFileValues>({
    resolver: zodResolver(renameFileSchema),
    mode: 'onTouched',
    defaultValues: { name: entry.name },
  });
  const { errors, touchedFields, isSubmitted } = formState;
  const onSubmit = (values: RenameFileValues) => {
    if (values.name === entry.name) onCancel();
    else onRename(values.name);
  };
  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
      <TextField
        label={t('rename.label')}
        autoComplete="off"
        error={errors.name?.message}
        touched={touchedFields.name || isSubmitted}
        {...register('name')}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          {t('common:modal.cancel')}
        </Button>
        <Button type="submit">{t('rename.submit')}</Button>
      </div>
    </form>
  );
}
