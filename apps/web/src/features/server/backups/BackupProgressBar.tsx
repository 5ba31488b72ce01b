import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../lib/shared.ts';
import { progressPercent, useLiveBackups } from './live.ts';

/**
 * A running backup's live bar (our addition): bytes archived so far from the daemon's `backup
 * progress` events, with a percentage when the daemon knows the total; without one the bar is
 * indeterminate.
 */
export function BackupProgressBar({ uuid, name }: { uuid: string; name: string }) {
  const { t } = useTranslation('backups');
  const progress = useLiveBackups((s) => s.progress[uuid]);
  const percent = progressPercent(progress);
  const text = !progress
    ? t('progress_starting')
    : percent !== null
      ? t('progress', {
          bytes: formatBytes(progress.bytesArchived),
          total: formatBytes(progress.bytesTotal ?? 0),
          percent,
        })
      : t('progress_unknown', { bytes: formatBytes(progress.bytesArchived) });
  return (
    <div className="mt-2 space-y-1" data-testid="backup-progress">
      {/* Drawn rather than a native <progress>, whose fill colour Chromium does not take from the theme. */}
      <div
        role="progressbar"
        aria-label={t('progress_label', { name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={text}
        className="h-1.5 w-full overflow-hidden rounded-full bg-zinc-800"
      >
        {percent !== null ? (
          <div
            key="determinate"
            className="h-full rounded-full bg-sky-500 transition-[width] duration-500"
            style={{ width: `${percent}%` }}
          />
        ) : (
          // No total: the bar only says that work is going on. Keyed apart from the filled bar, so
          // a total arriving grows a new bar from 0 instead of shrinking this full-width one.
          <div key="indeterminate" className="h-full w-full animate-pulse rounded-full bg-sky-500/50" />
        )}
      </div>
      <p className="text-xs text-zinc-400" aria-live="polite">
        {text}
      </p>
    </div>
  );
}
