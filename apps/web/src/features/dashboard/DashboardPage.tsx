import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getServers } from '../../api/servers.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { flashError, useGlobalStore } from '../../app/store.ts';
import { CenteredSpinner } from '../../components/Spinner.tsx';
import { PageContent } from '../../components/PageContent.tsx';
import { Pagination } from './Pagination.tsx';
import { ServerCard } from './ServerCard.tsx';
import { pageAddress, parsePage } from './pagination.ts';
import { useShowAllServers } from './showAll.ts';

/** / Dashboard (spec 000 §2): the paginated server list, with the root admin's toggle. */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const user = useGlobalStore((s) => s.user);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const page = parsePage(params.get('page'));
  const [showAll, setShowAll] = useShowAllServers(user?.uuid ?? '');
  const adminMode = (user?.rootAdmin ?? false) && showAll;

  const servers = useQuery({
    queryKey: ['dashboard', 'servers', adminMode, page],
    queryFn: () => getServers(page, { type: adminMode ? 'admin' : undefined }),
    placeholderData: keepPreviousData,
  });

  // The address names the page the panel answered with: `/` for page 1, `/?page=n` otherwise.
  // Placeholder data (the previous page, kept while the next loads) must not rewrite the address.
  const answered = servers.isPlaceholderData ? undefined : servers.data?.pagination.currentPage;
  useEffect(() => {
    if (answered === undefined) return;
    const wanted = pageAddress(answered);
    if (location.pathname + location.search !== wanted) void navigate(wanted, { replace: true });
  }, [answered, navigate, location.pathname, location.search]);

  // A failed load is an error flash keyed `dashboard` (spec 000 §8), shown above the list.
  const failure = servers.isError ? httpErrorToHuman(servers.error) : null;
  useEffect(() => {
    if (failure !== null) flashError('dashboard', failure);
    else useGlobalStore.getState().clearFlashes('dashboard');
  }, [failure]);

  const onToggle = () => {
    setShowAll(!showAll);
    void navigate('/', { replace: true });
  };

  return (
    <PageContent title={t('title')} flashKey="dashboard">
      {user?.rootAdmin && (
        <div className="mb-4 flex items-center justify-end gap-3">
          <span className="text-sm text-zinc-400">{showAll ? t('show_others') : t('show_mine')}</span>
          <button
            type="button"
            role="switch"
            aria-checked={showAll}
            aria-label={showAll ? t('show_others') : t('show_mine')}
            onClick={onToggle}
            className={`focus-ring relative h-6 w-11 rounded-full transition-colors ${showAll ? 'bg-sky-600' : 'bg-zinc-700'}`}
          >
            <span
              className={`absolute top-0.5 left-0.5 h-5 w-5 rounded-full bg-white transition-transform ${showAll ? 'translate-x-5' : ''}`}
            />
          </button>
        </div>
      )}
      {servers.isLoading ? (
        <CenteredSpinner />
      ) : servers.isError ? null : servers.data && servers.data.items.length > 0 ? (
        <>
          <ul className="space-y-3">
            {servers.data.items.map((server) => (
              <li key={server.uuid}>
                <ServerCard server={server} />
              </li>
            ))}
          </ul>
          <Pagination
            current={servers.data.pagination.currentPage}
            total={servers.data.pagination.totalPages}
          />
        </>
      ) : (
        <p className="rounded-lg border border-dashed border-zinc-700 px-4 py-12 text-center text-sm text-zinc-400">
          {adminMode ? t('empty_admin') : t('empty')}
        </p>
      )}
    </PageContent>
  );
}
