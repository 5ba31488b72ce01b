import { useTranslation } from 'react-i18next';
import type { Database } from '../../../api/databases.ts';
import { Button } from '../../../components/Button.tsx';

/**
 * One database (spec 001 §3): its name, the host's `address:port`, where connections may come
 * from and the username. Details opens the connection-details modal; Delete needs database.delete.
 */
export function DatabaseRow({
  database,
  mayDelete,
  onDetails,
  onDelete,
}: {
  database: Database;
  mayDelete: boolean;
  onDetails: (database: Database) => void;
  onDelete: (database: Database) => void;
}) {
  const { t } = useTranslation('databases');
  return (
    <li
      data-testid={`database-${database.id}`}
      className="flex flex-wrap items-center gap-x-6 gap-y-3 rounded-lg border border-zinc-800 bg-zinc-900/80 p-4 shadow-sm"
    >
      {/* On a phone the name takes the first line whole; the figures and buttons wrap below. */}
      <p className="min-w-0 flex-1 basis-full truncate font-mono text-sm font-medium text-zinc-100 md:basis-48">
        {database.name}
      </p>
      <Figure label={t('endpoint')} value={database.connectionString} testId="database-endpoint" />
      <Figure label={t('connections_from')} value={database.allowConnectionsFrom} testId="database-remote" />
      <Figure label={t('username')} value={database.username} testId="database-username" />
      <div className="ml-auto flex gap-2">
        <Button
          variant="secondary"
          onClick={() => onDetails(database)}
          aria-label={t('details_label', { name: database.name })}
        >
          {t('details')}
        </Button>
        {mayDelete && (
          <Button
            variant="danger"
            onClick={() => onDelete(database)}
            aria-label={t('delete_label', { name: database.name })}
          >
            {t('delete')}
          </Button>
        )}
      </div>
    </li>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="min-w-0">
      <p className="truncate font-mono text-sm text-zinc-200" data-testid={testId}>
        {value}
      </p>
      <p className="text-xs tracking-wide text-zinc-500 uppercase">{label}</p>
    </div>
  );
}
