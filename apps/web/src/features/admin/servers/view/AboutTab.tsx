import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { allocationAddress, getEggForServer } from '../../../../api/application/servers.ts';
import { ContentBox } from '../../../../components/ContentBox.tsx';
import { DetailList, StatusBadge } from '../../components/index.ts';
import { formatDay, formatMib } from '../../format.ts';
import { serverStatus } from '../serverStatus.ts';
import { useAdminServer } from '../ServerViewLayout.tsx';
import { InstallLogBox } from './InstallLogBox.tsx';

/** The egg's name for a line of text; one request, shared with the Startup tab. */
export function eggQueryKey(nestId: number, eggId: number) {
  return ['admin', 'server-view', 'egg', nestId, eggId] as const;
}

/** About (the index tab): what the server is, who owns it, where it runs and what it may use. */
export function ServerAboutTab() {
  const { t } = useTranslation('admin');
  const server = useAdminServer();
  const egg = useQuery({
    queryKey: eggQueryKey(server.nestId, server.eggId),
    queryFn: () => getEggForServer(server.nestId, server.eggId),
  });
  const status = serverStatus(server.status, server.suspended);
  const statusKey = status.key.replace('servers.status.', '');
  const unlimited = t('common.unlimited');
  const mib = (value: number) => (value ? formatMib(value) : unlimited);
  const primary = server.allocations.find((a) => a.id === server.allocationId);
  const count = (value: number | null) => (value === null ? unlimited : String(value));
  const { limits } = server;
  const swap =
    limits.swap === -1 ? unlimited : limits.swap === 0 ? t('server_view.about.none') : formatMib(limits.swap);

  return (
    <div className="space-y-5">
      <ContentBox title={t('server_view.about.title')}>
        <DetailList
          items={[
            [
              t('server_view.about.status'),
              <span key="status" className="flex flex-wrap items-center gap-2">
                <StatusBadge tone={status.tone}>{t(status.key)}</StatusBadge>
                {statusKey !== 'none' && (
                  <span className="text-zinc-400">{t(`server_view.status_hint.${statusKey}`)}</span>
                )}
              </span>,
            ],
            [
              t('servers.identifier'),
              <Link
                key="id"
                to={`/server/${server.identifier}`}
                className="focus-ring rounded font-mono text-sky-300 underline-offset-2 hover:underline"
              >
                {server.identifier}
              </Link>,
            ],
            [
              t('server_view.about.uuid'),
              <code key="uuid" className="break-all">
                {server.uuid}
              </code>,
            ],
            [
              t('servers.owner'),
              server.owner ? (
                <Link
                  key="owner"
                  to={`/admin/users/view/${server.owner.id}`}
                  className="focus-ring rounded text-sky-300 underline-offset-2 hover:underline"
                >
                  {server.owner.username} ({server.owner.email})
                </Link>
              ) : (
                `#${server.userId}`
              ),
            ],
            [
              t('servers.node'),
              <Link
                key="node"
                to={`/admin/nodes/view/${server.nodeId}`}
                className="focus-ring rounded text-sky-300 underline-offset-2 hover:underline"
              >
                {server.nodeItem?.name ?? `#${server.nodeId}`}
              </Link>,
            ],
            [
              t('server_view.about.primary_allocation'),
              <code key="allocation">
                {primary ? allocationAddress(primary) : `#${server.allocationId}`}
              </code>,
            ],
            [t('server_view.about.egg'), egg.data?.name ?? `#${server.eggId}`],
            [
              t('servers.image'),
              <code key="image" className="break-all">
                {server.container.image}
              </code>,
            ],
            [t('servers.memory'), mib(limits.memory)],
            [t('server_view.about.swap'), swap],
            [t('servers.disk'), mib(limits.disk)],
            [t('servers.cpu'), limits.cpu ? `${limits.cpu} %` : unlimited],
            [t('server_view.about.threads'), limits.threads ?? t('server_view.about.all_threads')],
            [t('server_view.about.io'), String(limits.io)],
            [
              t('server_view.about.feature_limits'),
              t('server_view.about.feature_limits_value', {
                databases: count(server.featureLimits.databases),
                allocations: count(server.featureLimits.allocations),
                backups: count(server.featureLimits.backups),
              }),
            ],
            [t('common.external_id'), server.externalId],
            [t('server_view.about.description'), server.description],
            [t('common.created'), formatDay(server.createdAt)],
          ]}
        />
      </ContentBox>
      <InstallLogBox server={server} />
    </div>
  );
}
