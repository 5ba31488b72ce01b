import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { moveFilesSchema, type MoveFilesValues } from '@talon/shared/validation/files';
import type { FileEntry } from '../../../api/files.ts';
import { Button } from '../../../components/Button.tsx';
import { TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { climbsAboveRoot, movePreview } from './moveTargets.ts';
import { CONTAINER_ROOT, joinPath } from './paths.ts';

/**
 * Move one or more entries, given as a path from the server root. One entry takes its full new path
 * (moved and renamed at once) or a folder; several go into a folder (moveTargets.ts decides).
 */
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
      <MoveForm
        names={entries.map((e) => e.name)}
        directory={directory}
        onMove={onMove}
        onCancel={onDismissed}
      />
    </Modal>
  );
}

function MoveForm({
  names,
  directory,
  onMove,
  onCancel,
}: {
  names: string[];
  directory: string;
  onMove: (destination: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('files');
  const one = names.length === 1;
  const { register, handleSubmit, formState, watch, setError } = useForm<MoveFilesValues>({
    resolver: zodResolver(moveFilesSchema),
    mode: 'onTouched',
    // One entry starts from its own path, so changing the folder or the name is a small edit.
    defaultValues: { destination: one ? joinPath(directory, names[0]!) : directory },
  });
  const { errors, touchedFields, isSubmitted } = formState;
  const typed = watch('destination');
  const target = movePreview(names, typed);
  const submit = handleSubmit((values) => {
    if (climbsAboveRoot(values.destination)) {
      setError('destination', { message: t('move.outside') });
      return;
    }
    onMove(values.destination);
  });
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <TextField
        label={one ? t('move.label_one') : t('move.label')}
        autoComplete="off"
        hint={one ? t('move.hint_one') : t('move.hint')}
        error={errors.destination?.message}
        touched={touchedFields.destination || isSubmitted}
        {...register('destination')}
      />
      <p className="text-xs break-all text-zinc-400">
        {one ? t('move.target_one') : t('move.target')}{' '}
        <code data-testid="move-target" className="rounded bg-zinc-800 px-1 py-0.5 text-zinc-200">
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
