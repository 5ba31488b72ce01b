import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  allocationAddress,
  formatBytes,
  formatLimit,
  formatUptime,
  isResourceAlarm,
  megabytesToBytes,
} from '../../lib/shared.ts';
import { getServerResources, type Server } from '../../api/servers.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { cardBadge, statusColour } from './badge.ts';

/** Resource polling interval of the cards (spec 000 §9). */
export const RESOURCE_POLL_MS = 30_000;

const BAR = { red: 'bg-red-500', green: 'bg-green-500', yellow: 'bg-yellow-400' } as const;

function Figure({
  label,
  value,
  limit,
  alarm,
}: {
  label: string;
  value: string;
  limit: string;
  alarm: boolean;
}) {
  return (
    <div className="min-w-0">
      <p className="text-xs uppercase tracking-wide text-zinc-500">{label}</p>
      <p className={`truncate text-sm ${alarm ? 'font-semibold text-red-400' : 'text-zinc-200'}`}>{value}</p>
      <p className="truncate text-xs text-zinc-500">/ {limit}</p>
    </div>
  );
}

export function ServerCard({ server }: { server: Server }) {
  const { t } = useTranslation('dashboard');
  const suspended = server.status === 'suspended';
  const resources = useQuery({
    queryKey: ['server', server.id, 'resources'],
    queryFn: () => getServerResources(server.id),
    enabled: !suspended,
    retry: false,
    // A suspended server is not polled (spec 000 §2), neither when its report says so.
    refetchInterval: (query) => (query.state.data?.isSuspended ? false : RESOURCE_POLL_MS),
  });
  const badge = cardBadge(server, resources);
  const stats = badge === null ? resources.data : undefined;
  const addresses = server.allocations.filter((a) => a.isDefault).map(allocationAddress);
  const colour = statusColour(stats?.state);

  return (
    <Link
      to={`/server/${server.id}`}
      data-testid="server-card"
      className="focus-ring relative grid grid-cols-1 gap-3 overflow-hidden rounded-lg border border-zinc-800 bg-zinc-900/80 p-4 pl-6 hover:border-zinc-600 md:grid-cols-3 md:items-center"
    >
      <span
        aria-hidden
        className={`absolute inset-y-0 left-0 w-1.5 ${stats ? BAR[colour] : 'bg-zinc-600'}`}
      />
      <div className="min-w-0">
        <p className="truncate font-medium text-zinc-100">{server.name}</p>
        {server.description && <p className="mt-1 truncate text-sm text-zinc-400">{server.description}</p>}
      </div>
      <div className="min-w-0 text-sm text-zinc-400">
        <p className="truncate" title={t('node')}>
          {server.node}
        </p>
        <p className="truncate font-mono text-xs text-zinc-300">{addresses.join(', ')}</p>
      </div>
      <div className="min-w-0">
        {badge === 'loading' ? (
          <Spinner size="small" />
        ) : badge !== null ? (
          <span
            data-testid="server-badge"
            className={`inline-block rounded px-2 py-1 text-xs font-medium uppercase tracking-wide ${
              badge === 'Install Failed' ? 'bg-red-950 text-red-200' : 'bg-zinc-800 text-zinc-300'
            }`}
          >
            {t(`badge.${badge}`)}
          </span>
        ) : (
          stats && (
            <div className="grid grid-cols-3 gap-3 sm:grid-cols-4">
              <Figure
                label={t('cpu')}
                value={`${stats.cpuAbsolute.toFixed(2)} %`}
                limit={formatLimit(server.limits.cpu, (v) => `${v} %`)}
                alarm={isResourceAlarm(stats.cpuAbsolute, server.limits.cpu)}
              />
              <Figure
                label={t('memory')}
                value={formatBytes(stats.memoryBytes)}
                limit={formatLimit(server.limits.memory, (v) => formatBytes(megabytesToBytes(v)))}
                alarm={isResourceAlarm(stats.memoryBytes, megabytesToBytes(server.limits.memory))}
              />
              <Figure
                label={t('disk')}
                value={formatBytes(stats.diskBytes)}
                limit={formatLimit(server.limits.disk, (v) => formatBytes(megabytesToBytes(v)))}
                alarm={isResourceAlarm(stats.diskBytes, megabytesToBytes(server.limits.disk))}
              />
              <div className="col-span-3 min-w-0 sm:col-span-1">
                <p className="text-xs uppercase tracking-wide text-zinc-500">{t('uptime')}</p>
                <p className="truncate text-sm text-zinc-200" data-testid="server-state">
                  {stats.state === 'offline' ? t('offline') : formatUptime(stats.uptime / 1000)}
                </p>
              </div>
            </div>
          )
        )}
      </div>
    </Link>
  );
}
