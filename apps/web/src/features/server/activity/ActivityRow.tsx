import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActivityEvent } from '../../../api/activity.ts';
import { Avatar } from '../users/Avatar.tsx';
import { formatModified } from '../files/time.ts';
import { describeEvent } from './describe.ts';
import { SystemAvatar } from './SystemAvatar.tsx';

const PILL = 'rounded bg-zinc-800 px-1.5 py-0.5 text-xs text-zinc-300';

/**
 * One event: who, a readable sentence, when (relative; the exact time on hover), from which IP,
 * and the raw properties on demand. The event's name filters the list to that event.
 */
export function ActivityRow({
  event,
  onFilter,
}: {
  event: ActivityEvent;
  onFilter: (event: string) => void;
}) {
  const { t } = useTranslation('activity');
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const hasProperties = Object.keys(event.properties).length > 0;
  const actor = event.actor;
  return (
    <li className="flex gap-3 py-3" data-testid="activity-row">
      <div className="hidden sm:block">
        {actor ? (
          <Avatar image={actor.image} username={actor.username} email={actor.email} size="small" />
        ) : (
          <SystemAvatar />
        )}
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <p className="text-sm break-words text-zinc-100" data-testid="activity-line">
            {describeEvent(event, t)}
          </p>
          {event.timestamp && (
            <time
              dateTime={event.timestamp.toISOString()}
              title={event.timestamp.toLocaleString()}
              className="shrink-0 text-xs whitespace-nowrap text-zinc-400"
            >
              {formatModified(event.timestamp)}
            </time>
          )}
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-zinc-400">
          <button
            type="button"
            onClick={() => onFilter(event.event)}
            aria-label={t('filter_by', { event: event.event })}
            className="focus-ring rounded font-mono text-sky-300 hover:underline"
          >
            {event.event}
          </button>
          {event.isApi && <span className={PILL}>{t('api')}</span>}
          {event.properties.using_sftp === true && <span className={PILL}>{t('sftp')}</span>}
          {event.ip && <span className="font-mono">{t('ip', { ip: event.ip })}</span>}
          {hasProperties && (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={detailsId}
              onClick={() => setOpen((v) => !v)}
              className="focus-ring rounded text-zinc-300 underline hover:text-white"
            >
              {open ? t('details_hide') : t('details_show')}
            </button>
          )}
        </div>
        {open && (
          <pre
            id={detailsId}
            data-testid="activity-properties"
            className="mt-2 overflow-x-auto rounded-md bg-zinc-950 p-3 font-mono text-xs text-zinc-300"
          >
            {JSON.stringify(event.properties, null, 2)}
          </pre>
        )}
      </div>
    </li>
  );
}
