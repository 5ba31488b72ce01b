import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getServers } from '../../api/servers.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { CenteredSpinner } from '../../components/Spinner.tsx';
import { MessageBox } from '../../components/MessageBox.tsx';
import { PageContent } from '../../components/PageContent.tsx';

/** / Dashboard: the server list; the full cards come with the server issues (spec §2). */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const servers = useQuery({ queryKey: ['dashboard', 'servers', 1], queryFn: () => getServers(1) });

  return (
    <PageContent title={t('title')} flashKey="dashboard">
      {servers.isLoading ? (
        <CenteredSpinner />
      ) : servers.isError ? (
        <MessageBox type="error" title={t('common:flash.error')}>
          {httpErrorToHuman(servers.error)}
        </MessageBox>
      ) : servers.data && servers.data.items.length > 0 ? (
        <ul className="space-y-3">
          {servers.data.items.map((server) => (
            <li key={server.uuid}>
              <Link
                to={`/server/${server.id}`}
                className="focus-ring block rounded-lg border border-zinc-800 bg-zinc-900/80 p-4 hover:border-zinc-600"
              >
                <p className="font-medium text-zinc-100">{server.name}</p>
                {server.description && <p className="mt-1 text-sm text-zinc-400">{server.description}</p>}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="rounded-lg border border-dashed border-zinc-700 px-4 py-12 text-center text-sm text-zinc-400">
          {t('empty')}
        </p>
      )}
    </PageContent>
  );
}
