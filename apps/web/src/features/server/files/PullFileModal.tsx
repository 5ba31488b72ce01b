import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pullFileSchema, type PullFileValues } from '@talon/shared/validation/file-pull';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { listRemoteDownloads, pullRemoteFile, type RemoteDownload } from '../../../api/files-pull.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { formatBytes } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { FILES_FLASH, PULL_MODAL_FLASH } from './flash.ts';

/** How often the progress of a running download is asked for. */
export const PULL_PROGRESS_INTERVAL_MS = 1000;

/**
 * Download from URL: the node fetches a file from the internet into the current folder. The panel
 * waits for it (foreground pull) while the modal asks for its progress each second. Closing the
 * modal does not stop the download: the folder still refreshes when it ends, and a failure then
 * shows on the page.
 */
export function PullFileModal({
  visible,
  directory,
  onPulled,
  onDismissed,
}: {
  visible: boolean;
  directory: string;
  /** The download into `directory` is complete. */
  onPulled: (directory: string) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('files');
  const dismiss = () => {
    useGlobalStore.getState().clearFlashes(PULL_MODAL_FLASH);
    onDismissed();
  };
  return (
    <Modal visible={visible} title={t('pull.title')} onDismissed={dismiss}>
      <PullFileForm directory={directory} onPulled={onPulled} onClose={dismiss} />
    </Modal>
  );
}

function PullFileForm({
  directory,
  onPulled,
  onClose,
}: {
  directory: string;
  onPulled: (directory: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('files');
  const serverId = useServerStore((s) => s.server!.id);
  const [running, setRunning] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const { register, handleSubmit, formState } = useForm<PullFileValues>({
    resolver: zodResolver(pullFileSchema),
    mode: 'onTouched',
    defaultValues: { url: '', fileName: '' },
  });
  const { errors, touchedFields, isSubmitted } = formState;
  const downloads = useQuery({
    queryKey: ['server', serverId, 'files', 'pulls'],
    queryFn: () => listRemoteDownloads(serverId),
    enabled: running !== null,
    refetchInterval: PULL_PROGRESS_INTERVAL_MS,
    gcTime: 0,
  });
  const current = running ? downloads.data?.find((d) => d.url === running) : undefined;

  const onSubmit = async (values: PullFileValues) => {
    useGlobalStore.getState().clearFlashes(PULL_MODAL_FLASH);
    setRunning(values.url);
    try {
      await pullRemoteFile(serverId, { url: values.url, directory, fileName: values.fileName || null });
    } catch (error) {
      // Closed meanwhile: the page says it instead.
      flashError(mounted.current ? PULL_MODAL_FLASH : FILES_FLASH, httpErrorToHuman(error));
      if (mounted.current) setRunning(null);
      return;
    }
    if (mounted.current) setRunning(null);
    onPulled(directory);
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
      <FlashMessageRender byKey={PULL_MODAL_FLASH} />
      <TextField
        label={t('pull.url')}
        type="url"
        inputMode="url"
        autoComplete="off"
        autoFocus
        placeholder="https://"
        disabled={running !== null}
        error={errors.url?.message}
        touched={touchedFields.url || isSubmitted}
        {...register('url')}
      />
      <TextField
        label={t('pull.file_name')}
        hint={t('pull.file_name_hint')}
        autoComplete="off"
        disabled={running !== null}
        error={errors.fileName?.message}
        touched={touchedFields.fileName || isSubmitted}
        {...register('fileName')}
      />
      {running !== null && <PullProgress download={current} />}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose}>
          {running !== null ? t('pull.hide') : t('common:modal.cancel')}
        </Button>
        <Button type="submit" isLoading={running !== null}>
          {t('pull.submit')}
        </Button>
      </div>
    </form>
  );
}

/** Bytes and percent when the size is known; bytes alone when not; "connecting" before any. */
function PullProgress({ download }: { download: RemoteDownload | undefined }) {
  const { t } = useTranslation('files');
  const bytes = download?.bytes ?? 0;
  const total = download?.totalBytes ?? null;
  const percent = total ? Math.min(100, Math.floor((bytes / total) * 100)) : null;
  const text =
    percent !== null
      ? t('pull.progress', { bytes: formatBytes(bytes), total: formatBytes(total!), percent })
      : bytes > 0
        ? t('pull.progress_unknown', { bytes: formatBytes(bytes) })
        : t('pull.connecting');
  return (
    <div className="space-y-2" role="status" aria-live="polite">
      <progress
        className="h-2 w-full overflow-hidden rounded accent-sky-500"
        max={100}
        aria-label={t('pull.progress_label')}
        {...(percent !== null ? { value: percent } : {})}
      />
      <p className="text-sm text-zinc-300">{text}</p>
      <p className="text-xs text-zinc-400">{t('pull.keeps_running')}</p>
    </div>
  );
}
