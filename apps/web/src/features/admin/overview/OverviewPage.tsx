import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getOverview, type Overview } from '../../../api/application/overview.ts';
import { listNodes } from '../../../api/application/nodes.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { AdminPage, ItemLoader } from '../components/index.ts';
import { FirstSteps } from './FirstSteps.tsx';
import { NodeCard } from './NodeCard.tsx';

const COUNTS: { key: keyof Overview['counts']; to: string }[] = [
  { key: 'servers', to: '/admin/servers' },
  { key: 'users', to: '/admin/users' },
  { key: 'nodes', to: '/admin/nodes' },
  { key: 'locations', to: '/admin/locations' },
  { key: 'nests', to: '/admin/nests' },
  { key: 'eggs', to: '/admin/nests' },
  { key: 'databaseHosts', to: '/admin/databases' },
];

/** /admin: version, first steps on a fresh install, counts, and every node's state and use. */
export function OverviewPage() {
  const { t } = useTranslation('admin');
  const overview = useQuery({ queryKey: ['admin', 'overview'], queryFn: getOverview });
  const nodes = useQuery({
    queryKey: ['admin', 'nodes', 'overview'],
    queryFn: () => listNodes({ perPage: 100 }),
  });

  return (
    <AdminPage
      title={t('overview.title')}
      description={
        overview.data ? t('overview.version', { version: overview.data.version }) : t('overview.description')
      }
    >
      <ItemLoader query={overview}>
        {(data) => (
          <div className="space-y-6">
            <FirstSteps steps={data.firstSteps} />
            <section aria-labelledby="admin-counts">
              <h2 id="admin-counts" className="sr-only">
                {t('overview.counts')}
              </h2>
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
                {COUNTS.map((count) => (
                  <li key={count.key}>
                    <Link
                      to={count.to}
                      className="focus-ring block rounded-lg border border-zinc-800 bg-zinc-900/80 p-3 hover:border-zinc-600"
                    >
                      <span className="block text-2xl font-semibold text-zinc-100">
                        {data.counts[count.key]}
                      </span>
                      <span className="block text-xs text-zinc-400">{t(`overview.count.${count.key}`)}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          </div>
        )}
      </ItemLoader>
      <ContentBox title={t('overview.nodes')}>
        <ItemLoader query={nodes}>
          {(page) =>
            page.items.length === 0 ? (
              <p className="text-sm text-zinc-400">
                {t('overview.no_nodes')}{' '}
                <Link to="/admin/nodes/new" className="focus-ring rounded text-sky-300 hover:underline">
                  {t('nodes.create')}
                </Link>
              </p>
            ) : (
              <ul className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
                {page.items.map((node) => (
                  <NodeCard key={node.id} node={node} />
                ))}
              </ul>
            )
          }
        </ItemLoader>
      </ContentBox>
    </AdminPage>
  );
}
