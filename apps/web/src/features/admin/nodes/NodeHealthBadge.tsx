import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getNodeHealth } from '../../../api/application/nodes.ts';
import { Spinner } from '../../../components/Spinner.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';

/** How often a shown node's health is asked again. */
export const NODE_HEALTH_REFRESH_MS = 30_000;

export function useNodeHealth(id: number) {
  return useQuery({
    queryKey: ['admin', 'nodes', id, 'health'],
    queryFn: () => getNodeHealth(id),
    refetchInterval: NODE_HEALTH_REFRESH_MS,
    retry: false,
  });
}

/**
 * Online / Offline (with the reason as a tooltip and for screen readers) / Checking…. `detailed`
 * (the nodes list) shows a spinner while asking (up to 3 s) and the daemon's version when online.
 */
export function NodeHealthBadge({ id, detailed = false }: { id: number; detailed?: boolean }) {
  const { t } = useTranslation('admin');
  const health = useNodeHealth(id);
  if (health.isPending) {
    if (detailed) {
      return (
        <span className="inline-flex items-center gap-2 text-xs text-zinc-400">
          <Spinner size="small" label={t('nodes.checking')} />
          <span aria-hidden="true">{t('nodes.checking')}</span>
        </span>
      );
    }
    return <StatusBadge tone="neutral">{t('nodes.checking')}</StatusBadge>;
  }
  if (health.error) return <StatusBadge tone="warning">{t('nodes.unknown')}</StatusBadge>;
  if (health.data.reachable) {
    return (
      <span className="inline-flex flex-wrap items-center gap-2">
        <StatusBadge tone="ok">{t('nodes.online')}</StatusBadge>
        {detailed && health.data.version && (
          <span className="text-xs text-zinc-400">
            {t('nodes.version', { version: health.data.version })}
          </span>
        )}
      </span>
    );
  }
  if (detailed) {
    return (
      <span className="inline-flex flex-wrap items-center gap-2">
        <StatusBadge tone="error">{t('nodes.offline')}</StatusBadge>
        {health.data.error && <span className="text-xs text-red-300">{health.data.error}</span>}
      </span>
    );
  }
  return (
    <span title={health.data.error ?? undefined}>
      <StatusBadge tone="error">
        {t('nodes.offline')}
        {health.data.error && <span className="sr-only">: {health.data.error}</span>}
      </StatusBadge>
    </span>
  );
}
