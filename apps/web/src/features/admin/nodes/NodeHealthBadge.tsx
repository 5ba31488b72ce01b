import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getNodeHealth } from '../../../api/application/nodes.ts';
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

/** Online / Offline (with the reason as a tooltip and for screen readers) / Checking… */
export function NodeHealthBadge({ id }: { id: number }) {
  const { t } = useTranslation('admin');
  const health = useNodeHealth(id);
  if (health.isPending) return <StatusBadge tone="neutral">{t('nodes.checking')}</StatusBadge>;
  if (health.error) return <StatusBadge tone="warning">{t('nodes.unknown')}</StatusBadge>;
  if (health.data.reachable) return <StatusBadge tone="ok">{t('nodes.online')}</StatusBadge>;
  return (
    <span title={health.data.error ?? undefined}>
      <StatusBadge tone="error">
        {t('nodes.offline')}
        {health.data.error && <span className="sr-only">: {health.data.error}</span>}
      </StatusBadge>
    </span>
  );
}
