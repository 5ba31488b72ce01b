import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../lib/shared.ts';
import type { Upload } from './useUploads.ts';

/**
 * One progress bar per upload the user started (all the files of a selection or a drop together,
 * however many requests they take), with a way to stop it.
 */
export function UploadList({ uploads, onCancel }: { uploads: Upload[]; onCancel: (id: number) => void }) {
  const { t } = useTranslation('files');
  if (uploads.length === 0) return null;
  return (
    <ul
      aria-label={t('upload.list')}
      className="space-y-2 rounded-lg border border-zinc-800 bg-zinc-900/80 p-3"
    >
      {uploads.map((upload) => {
        const percent =
          upload.total > 0 ? Math.min(100, Math.round((upload.loaded / upload.total) * 100)) : 0;
        const name = upload.count === 1 ? upload.name : t('upload.many', { count: upload.count });
        return (
          <li key={upload.id} className="text-sm" data-testid="upload-row">
            <div className="flex items-center gap-3">
              <span className="min-w-0 flex-1 truncate text-zinc-200" title={name}>
                {name}
              </span>
              <span className="shrink-0 text-xs text-zinc-400">
                {formatBytes(upload.loaded)} / {formatBytes(upload.total)}
              </span>
              <button
                type="button"
                onClick={() => onCancel(upload.id)}
                className="focus-ring shrink-0 rounded px-2 py-0.5 text-xs text-zinc-400 hover:bg-zinc-800 hover:text-white"
                aria-label={t('upload.cancel', { name })}
              >
                {t('upload.cancel_short')}
              </button>
            </div>
            <div
              role="progressbar"
              aria-label={t('upload.progress', { name })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="mt-1 h-[3px] overflow-hidden rounded bg-zinc-800"
            >
              <div className="h-full bg-sky-500 transition-all" style={{ width: `${percent}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
