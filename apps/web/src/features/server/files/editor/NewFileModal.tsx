import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { newFileSchema, type NewFileValues } from '@talon/shared/validation/files';
import { Button } from '../../../../components/Button.tsx';
import { TextField } from '../../../../components/Field.tsx';
import { Modal } from '../../../../components/Modal.tsx';
import { CONTAINER_ROOT, joinPath } from '../paths.ts';

/** Asks a new file's name when it is first saved (spec 001 §2, §5: a name is required). */
export function NewFileModal({
  visible,
  directory,
  onSubmit,
  onDismissed,
}: {
  visible: boolean;
  directory: string;
  onSubmit: (name: string) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('files');
  return (
    <Modal visible={visible} title={t('editor.name.title')} onDismissed={onDismissed}>
      <NewFileForm directory={directory} onSubmit={onSubmit} onCancel={onDismissed} />
    </Modal>
  );
}

function NewFileForm({
  directory,
  onSubmit,
  onCancel,
}: {
  directory: string;
  onSubmit: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('files');
  const { register, handleSubmit, formState, watch } = useForm<NewFileValues>({
    resolver: zodResolver(newFileSchema),
    mode: 'onTouched',
    defaultValues: { name: '' },
  });
  const { errors, touchedFields, isSubmitted } = formState;
  const name = watch('name').trim();

  return (
    <form noValidate onSubmit={handleSubmit((values) => onSubmit(values.name))} className="space-y-4">
      <TextField
        label={t('editor.name.label')}
        autoComplete="off"
        spellCheck={false}
        error={errors.name?.message}
        touched={touchedFields.name || isSubmitted}
        {...register('name')}
      />
      <p className="text-xs break-all text-zinc-400">
        {t('editor.name.will_create')}{' '}
        <code className="rounded bg-zinc-800 px-1 py-0.5 text-zinc-200">
          {`${CONTAINER_ROOT}${joinPath(directory, name)}`.replace(/\/$/, '')}
        </code>
      </p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          {t('common:modal.cancel')}
        </Button>
        <Button type="submit">{t('editor.name.submit')}</Button>
      </div>
    </form>
  );
}
