import { useTranslation } from 'react-i18next';
import {
  allocationAddress,
  formatBytes,
  formatLimit,
  formatUptime,
  isResourceAlarm,
  megabytesToBytes,
} from '../../lib/shared.ts';
import { useServerStore } from './store.ts';
import { installFailed } from './installFailed.ts';

function Row({
  label,
  value,
  alarm = false,
  testId,
}: {
  label: string;
  value: string;
  alarm?: boolean;
  testId?: string;
}) {
  return (
    <div className="flex min-w-0 items-baseline justify-between gap-3 border-b border-zinc-800 py-2 last:border-0">
      <dt className="shrink-0 text-xs uppercase tracking-wide text-zinc-500">{label}</dt>
      <dd
        className={`truncate text-right text-sm ${alarm ? 'font-semibold text-red-400' : 'text-zinc-200'}`}
        data-testid={testId}
      >
        {value}
      </dd>
    </div>
  );
}

/** What the status line says (spec 001 §2): connecting first, then install/transfer, then the state. */
export function statusText(
  t: (key: string) => string,
  connected: boolean,
  server: { isInstalling: boolean; isTransferring: boolean; status?: string | null },
  state: string | null,
): string {
  if (!connected) return t('status.connecting');
  // Counted as installing by the spec, but nothing runs: an admin's console must not say so.
  if (installFailed(server.status)) return t('status.install_failed');
  if (server.isInstalling) return t('status.installing');
  if (server.isTransferring) return t('status.transferring');
  return state ?? t('status.connecting');
}

/** Name, status, uptime, address and resource use against the limits. */
export function HeaderCard() {
  const { t } = useTranslation('server');
  const server = useServerStore((s) => s.server)!;
  const stats = useServerStore((s) => s.stats);
  const state = useServerStore((s) => s.powerState);
  const connected = useServerStore((s) => s.connected);
  // A connection that cannot be made (no permission, refused credentials) is not "Connecting...".
  const unreachable = useServerStore((s) => s.socketFatal !== null);
  const memoryLimit = megabytesToBytes(server.limits.memory);
  const diskLimit = megabytesToBytes(server.limits.disk);
  const addresses = server.allocations.filter((a) => a.isDefault).map(allocationAddress);
  const offline = state === 'offline' || !stats;

  return (
    <section className="rounded-lg border border-zinc-800 bg-zinc-900/80 p-4">
      <h2 className="truncate text-lg font-semibold text-zinc-100">{server.name}</h2>
      <dl className="mt-2">
        <Row
          label={t('header.status')}
          value={unreachable ? '—' : statusText(t, connected, server, state)}
          testId="server-status"
        />
        <Row
          label={t('header.uptime')}
          value={offline ? '—' : formatUptime((stats?.uptime ?? 0) / 1000)}
          testId="server-uptime"
        />
        <Row label={t('header.address')} value={addresses.join(', ') || '—'} />
        <Row
          label={t('header.cpu')}
          value={`${(stats?.cpuAbsolute ?? 0).toFixed(2)} % / ${formatLimit(server.limits.cpu, (v) => `${v} %`)}`}
          alarm={isResourceAlarm(stats?.cpuAbsolute ?? 0, server.limits.cpu)}
        />
        <Row
          label={t('header.memory')}
          value={`${formatBytes(stats?.memoryBytes ?? 0)} / ${formatLimit(memoryLimit, formatBytes)}`}
          alarm={isResourceAlarm(stats?.memoryBytes ?? 0, memoryLimit)}
        />
        <Row
          label={t('header.disk')}
          value={`${formatBytes(stats?.diskBytes ?? 0)} / ${formatLimit(diskLimit, formatBytes)}`}
          alarm={isResourceAlarm(stats?.diskBytes ?? 0, diskLimit)}
        />
      </dl>
    </section>
  );
}
