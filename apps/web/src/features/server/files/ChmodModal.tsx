import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { chmodSchema, FILE_MODE_PATTERN, type ChmodValues } from '@talon/shared/validation/files';
import type { FileEntry } from '../../../api/files.ts';
import { Button } from '../../../components/Button.tsx';
import { TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { formatModeBits } from '../../../lib/shared.ts';

/** Permissions: the mode as octal digits, with what it means shown as it is typed. */
export function ChmodModal({
  entry,
  visible,
  onChmod,
  onDismissed,
}: {
  entry: FileEntry;
  visible: boolean;
  onChmod: (digits: string) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('files');
  return (
    <Modal visible={visible} title={t('chmod.title', { name: entry.name })} onDismissed={onDismissed}>
      <ChmodForm entry={entry} onChmod={onChmod} onCancel={onDismissed} />
    </Modal>
  );
}

function ChmodForm({
  entry,
  onChmod,
  onCancel,
}: {
  entry: FileEntry;
  onChmod: (digits: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('files');
  const { register, handleSubmit, formState, watch } = useForm<ChmodValues>({
    resolver: zodResolver(chmodSchema),
    mode: 'onChange',
    defaultValues: { mode: entry.modeBits },
  });
  const { errors, touchedFields, isSubmitted } = formState;
  const typed = watch('mode').trim();
  const valid = FILE_MODE_PATTERN.test(typed);
  return (
    <form noValidate onSubmit={handleSubmit((values) => onChmod(values.mode))} className="space-y-4">
      <TextField
        label={t('chmod.label')}
        autoComplete="off"
        inputMode="numeric"
        maxLength={4}
        className="font-mono"
        error={errors.mode?.message}
        touched={touchedFields.mode || isSubmitted || typed.length >= 3}
        {...register('mode')}
      />
      <dl className="space-y-1 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-zinc-400">{t('chmod.current')}</dt>
          <dd className="font-mono text-zinc-200" data-testid="chmod-current">
            {formatModeBits(entry.modeBits)}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-zinc-400">{t('chmod.new')}</dt>
          <dd className="font-mono text-zinc-200" data-testid="chmod-new">
            {valid ? formatModeBits(typed) : '—'}
          </dd>
        </div>
      </dl>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          {t('common:modal.cancel')}
        </Button>
        <Button type="submit">{t('chmod.submit')}</Button>
      </div>
    </form>
  );
}
