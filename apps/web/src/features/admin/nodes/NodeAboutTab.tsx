import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatBytesShort } from '@talon/shared/format/bytes';
import { listNodeAllocations } from '../../../api/application/nodes.ts';
import { listServers } from '../../../api/application/servers.ts';
import { Button } from '../../../components/Button.tsx';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { DetailList, StatusBadge } from '../components/index.ts';
import { formatMoment } from '../format.ts';
import { ResourceBar } from '../overview/ResourceBar.tsx';
import { useNodeHealth } from './NodeHealthBadge.tsx';
import { runtimeLabel } from './runtimeLabel.ts';
import { useAdminNode } from './useAdminNode.ts';

/** A list's total, asked with one item a page (cheap on any size of node). */
function useTotal(key: string, fetch: () => Promise<{ pagination: { total: number } }>, nodeId: number) {
  return useQuery({
    queryKey: ['admin', 'nodes', nodeId, 'count', key],
    queryFn: fetch,
    select: (p) => p.pagination.total,
  });
}

/** About tab: what the daemon says about its machine (or why it cannot be asked), use and counts. */
export function NodeAboutTab() {
  const { t } = useTranslation('admin');
  const node = useAdminNode();
  const health = useNodeHealth(node.id);
  const servers = useTotal(
    'servers',
    () => listServers({ perPage: 1, filters: { node_id: String(node.id) } }),
    node.id,
  );
  const allocations = useTotal('allocations', () => listNodeAllocations(node.id, { perPage: 1 }), node.id);
  const free = useTotal(
    'free',
    () => listNodeAllocations(node.id, { perPage: 1, filters: { server_id: 'false' } }),
    node.id,
  );
  const count = (q: { data?: number; error: unknown }) =>
    q.error ? '?' : q.data === undefined ? '…' : String(q.data);
  const h = health.data;

  return (
    <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
      <ContentBox title={t('nodes.about.daemon')}>
        <div className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            {health.isPending ? (
              <StatusBadge tone="neutral">{t('nodes.checking')}</StatusBadge>
            ) : h?.reachable ? (
              <StatusBadge tone="ok">{t('nodes.online')}</StatusBadge>
            ) : (
              <StatusBadge tone="error">{t('nodes.offline')}</StatusBadge>
            )}
            <Button
              variant="secondary"
              isLoading={health.isFetching}
              onClick={() => void health.refetch()}
              aria-label={t('nodes.about.check_again')}
            >
              {t('nodes.about.check_again')}
            </Button>
          </div>
          {health.error ? (
            <p role="alert" className="text-sm text-red-300">
              {t('nodes.about.health_failed')}
            </p>
          ) : h && !h.reachable ? (
            <div role="alert" className="space-y-1 text-sm text-red-300">
              <p>
                {t('nodes.about.unreachable', {
                  address: `${node.scheme}://${node.fqdn}:${node.daemonListen}`,
                })}
              </p>
              {h.error && <p className="font-medium">{h.error}</p>}
              <p className="text-zinc-400">{t('nodes.about.unreachable_hint')}</p>
            </div>
          ) : null}
          {h?.reachable && (
            <DetailList
              items={[
                [t('nodes.about.version'), h.version ?? '—'],
                [t('nodes.about.runtime'), runtimeLabel(h.runtime, t)],
                [t('nodes.about.os'), h.os ?? '—'],
                [t('nodes.about.kernel'), h.kernelVersion ?? '—'],
                [t('nodes.about.architecture'), h.architecture ?? '—'],
                [t('nodes.about.cpus'), h.cpuCount === null ? '—' : String(h.cpuCount)],
                [
                  t('nodes.about.memory_total'),
                  h.memoryTotal === null ? '—' : formatBytesShort(h.memoryTotal),
                ],
              ]}
            />
          )}
          {h && (
            <p className="text-xs text-zinc-500">
              {t('nodes.about.checked_at', { time: formatMoment(h.checkedAt) ?? '—' })}
            </p>
          )}
        </div>
      </ContentBox>
      <div className="min-w-0 space-y-6">
        <ContentBox title={t('nodes.about.use')}>
          <div className="space-y-4">
            <ResourceBar
              label={t('nodes.about.memory_allocated')}
              used={node.allocated.memory}
              total={node.memory}
            />
            <ResourceBar
              label={t('nodes.about.disk_allocated')}
              used={node.allocated.disk}
              total={node.disk}
            />
            <DetailList
              items={[
                [t('nodes.about.servers'), count(servers)],
                [
                  t('nodes.about.allocations'),
                  t('nodes.about.allocations_value', { total: count(allocations), free: count(free) }),
                ],
              ]}
            />
          </div>
        </ContentBox>
        <ContentBox title={t('nodes.about.connection')}>
          <DetailList
            items={[
              [
                t('nodes.about.daemon_address'),
                <code
                  key="a"
                  className="break-all"
                >{`${node.scheme}://${node.fqdn}:${node.daemonListen}`}</code>,
              ],
              [t('nodes.form.daemon_sftp'), String(node.daemonSftp)],
              [t('nodes.public'), node.public ? t('common.yes') : t('common.no')],
              [t('nodes.form.maintenance_mode'), node.maintenanceMode ? t('common.on') : t('common.off')],
              [
                t('nodes.about.uuid'),
                <code key="u" className="text-xs break-all">
                  {node.uuid}
                </code>,
              ],
              [
                t('nodes.form.daemon_base'),
                <code key="b" className="break-all">
                  {node.daemonBase}
                </code>,
              ],
            ]}
          />
        </ContentBox>
      </div>
    </div>
  );
}
