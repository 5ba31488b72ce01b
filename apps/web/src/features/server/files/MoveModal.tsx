import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { moveFilesSchema, type MoveFilesValues } from '@talon/shared/validation/files';
import type { FileEntry } from '../../../api/files.ts';
import { Button } from '../../../components/Button.tsx';
import { TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { CONTAINER_ROOT, normalizeDirectory } from './paths.ts';

/** Move one or more entries to another folder, given as a path from the server root. */
export function MoveModal({
  entries,
  directory,
  visible,
  onMove,
  onDismissed,
}: {
  entries: FileEntry[];
  directory: string;
  visible: boolean;
  onMove: (destination: string) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('files');
  const title =
    entries.length === 1
      ? t('move.title_one', { name: entries[0]!.name })
      : t('move.title_many', { count: entries.length });
  return (
    <Modal visible={visible} title={title} onDismissed={onDismissed}>
      <MoveForm directory={directory} onMove={onMove} onCancel={onDismissed} />
    </Modal>
  );
}

function MoveForm({
  directory,
  onMove,
  onCancel,
}: {
  directory: string;
  onMove: (destination: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('files');
  const { register, handleSubmit, formState, watch } = useForm<MoveFilesValues>({
    resolver: zodResolver(moveFilesSchema),
    mode: 'onTouched',
    defaultValues: { destination: directory },
  });
  const { errors, touchedFields, isSubmitted } = formState;
  const target = normalizeDirectory(watch('destination'));
  return (
    <form noValidate onSubmit={handleSubmit((values) => onMove(values.destination))} className="space-y-4">
      <TextField
        label={t('move.label')}
        autoComplete="off"
        hint={t('move.hint')}
        error={errors.destination?.message}
        touched={touchedFields.destination || isSubmitted}
        {...register('destination')}
      />
      <p className="text-xs break-all text-zinc-400">
        {t('move.target')}{' '}
        <code className="rounded bg-zinc-800 px-1 py-0.5 text-zinc-200">
          {`${CONTAINER_ROOT}${target === '/' ? '' : target}`}
        </code>
      </p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          {t('common:modal.cancel')}
        </Button>
        <Button type="submit">{t('move.submit')}</Button>
      </div>
    </form>
  );
}
