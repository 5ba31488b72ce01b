import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatBytesShort } from '@talon/shared/format/bytes';
import type { AdminNode } from '../../../api/application/nodes.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { useNodeHealth } from '../nodes/NodeHealthBadge.tsx';
import { ResourceBar } from './ResourceBar.tsx';

/** One node on the overview: online or offline (and why), what the daemon runs on, its use. */
export function NodeCard({ node }: { node: AdminNode }) {
  const { t } = useTranslation('admin');
  const health = useNodeHealth(node.id);
  const state = health.isPending
    ? { tone: 'neutral' as const, text: t('nodes.checking') }
    : health.data?.reachable
      ? { tone: 'ok' as const, text: t('nodes.online') }
      : { tone: 'error' as const, text: t('nodes.offline') };
  const system = health.data?.reachable
    ? [
        health.data.version && t('overview.daemon_version', { version: health.data.version }),
        health.data.cpuCount !== null && t('overview.cpus', { count: health.data.cpuCount }),
        health.data.memoryTotal !== null &&
          t('overview.ram', { size: formatBytesShort(health.data.memoryTotal) }),
        health.data.os,
      ].filter(Boolean)
    : [];
  const reason = health.error
    ? t('overview.health_failed')
    : health.data?.reachable
      ? null
      : health.data?.error;

  return (
    <li className="space-y-3 rounded-lg border border-zinc-800 bg-zinc-900/80 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link
          to={`/admin/nodes/view/${node.id}`}
          className="focus-ring rounded font-medium text-sky-300 hover:underline"
        >
          {node.name}
        </Link>
        <StatusBadge tone={state.tone}>{state.text}</StatusBadge>
      </div>
      <p className="truncate font-mono text-xs text-zinc-400">{node.fqdn}</p>
      {system.length > 0 && <p className="text-xs text-zinc-400">{system.join(' · ')}</p>}
      {reason && <p className="text-xs text-red-300">{reason}</p>}
      <ResourceBar label={t('overview.memory_allocated')} used={node.allocated.memory} total={node.memory} />
      <ResourceBar label={t('overview.disk_allocated')} used={node.allocated.disk} total={node.disk} />
    </li>
  );
}
