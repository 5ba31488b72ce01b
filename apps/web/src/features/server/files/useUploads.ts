import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { getFileUploadUrl, uploadFiles } from '../../../api/files.ts';
import { flashError } from '../../../app/store.ts';
import { FILES_FLASH } from './flash.ts';
import { uploadInBatches, type UploadFailure } from './upload-run.ts';
import { fileListKey } from './useFileList.ts';

/** One upload as the user started it (a selection or a drop), however many requests it takes. */
export interface Upload {
  id: number;
  /** The file's name, or the first file's when there are several. */
  name: string;
  count: number;
  directory: string;
  /** Bytes of file content sent, out of `total` (all the files together). */
  loaded: number;
  total: number;
}

/** Names shown in an error before the rest are only counted. */
const NAMES_SHOWN = 5;

function listNames(names: string[], t: TFunction<'files'>): string {
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  const more = names.length - NAMES_SHOWN;
  return more > 0 ? t('upload.names_more', { names: shown, count: more }) : shown;
}

/**
 * Which files did not arrive, then why, once per reason (every batch after a lost connection fails
 * the same way).
 */
export function describeFailures(failures: UploadFailure[], total: number, t: TFunction<'files'>): string {
  const byReason = new Map<string, string[]>();
  for (const failure of failures) {
    const reason =
      'tooLargeMb' in failure ? t('upload.too_large', { mb: failure.tooLargeMb }) : failure.reason;
    byReason.set(reason, [...(byReason.get(reason) ?? []), ...failure.names]);
  }
  const failed = failures.reduce((n, f) => n + f.names.length, 0);
  const parts = [...byReason].map(
    ([reason, names]) => `${t('upload.failed', { names: listNames(names, t) })} ${reason}`,
  );
  if (failed < total) parts.push(t('upload.others_uploaded'));
  return parts.join(' ');
}

let nextId = 0;

/**
 * Uploads (spec 001 §2, §7): the files of one selection or drop go in batches within the daemon's
 * per-request limits (upload-batches.ts), one after another, each with its own signed URL (good
 * for one request), under one progress bar over all their bytes. At the end the folder's list is
 * read once and the files that failed are named in one error. Leaving the page cancels the
 * uploads still running; batches already sent stay.
 */
export function useUploads(serverId: string) {
  const { t } = useTranslation('files');
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const controllers = useRef(new Map<number, AbortController>());

  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const controller of running.values()) controller.abort();
      running.clear();
    };
  }, []);

  const patch = (id: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.id === id ? { ...u, ...change } : u)));

  const run = async (files: File[], directory: string) => {
    const id = ++nextId;
    const controller = new AbortController();
    controllers.current.set(id, controller);
    const total = files.reduce((sum, f) => sum + f.size, 0);
    setUploads((list) => [
      ...list,
      { id, name: files[0]!.name, count: files.length, directory, loaded: 0, total },
    ]);
    try {
      const failures = await uploadInBatches({
        files,
        getUrl: () => getFileUploadUrl(serverId),
        send: (url, batch, onProgress) => uploadFiles(url, directory, batch, onProgress, controller.signal),
        onProgress: (loaded) => patch(id, { loaded }),
        signal: controller.signal,
      });
      if (failures.length > 0 && !controller.signal.aborted) {
        flashError(FILES_FLASH, describeFailures(failures, files.length, t));
      }
    } finally {
      controllers.current.delete(id);
      setUploads((list) => list.filter((u) => u.id !== id));
      void queryClient.invalidateQueries({ queryKey: fileListKey(serverId, directory) });
    }
  };

  const start = (files: File[], directory: string) => {
    if (files.length > 0) void run(files, directory);
  };

  const cancel = (id: number) => controllers.current.get(id)?.abort();

  return { uploads, start, cancel };
}
