import { Outlet, useNavigate, useOutletContext, useParams, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  deleteEgg,
  eggExportUrl,
  findEggNest,
  getEgg,
  type AdminEgg,
} from '../../../api/application/nests.ts';
import { HttpError } from '../../../api/errors.ts';
import { useGlobalStore } from '../../../app/store.ts';
import { ADMIN_FLASH, AdminPage, ConfirmAction, ItemLoader, Tabs } from '../components/index.ts';
import { eggHref } from './eggLinks.ts';
import { EggTestButton } from './EggTestButton.tsx';
import { NESTS_QUERY } from './NestsListPage.tsx';

export interface EggOutlet {
  egg: AdminEgg;
}

/** The egg the tabs of /admin/nests/egg/:id edit. */
export function useEggOutlet(): EggOutlet {
  return useOutletContext<EggOutlet>();
}

export function eggQueryKey(eggId: number | string) {
  return [...NESTS_QUERY, 'egg', String(eggId)] as const;
}

const EXPORT =
  'focus-ring inline-flex items-center justify-center rounded-md bg-zinc-700 px-4 py-2 text-sm font-medium text-zinc-100 transition-colors hover:bg-zinc-600';

/**
 * /admin/nests/egg/:id/*: an egg's tabs (configuration, variables, install script), with Export and
 * Delete. The API addresses an egg within its nest: the address carries `?nest=`, and without it
 * (a hand-typed address) the nest is looked up.
 */
export function EggViewLayout() {
  const { t } = useTranslation('admin');
  const id = Number(useParams().id);
  const [params] = useSearchParams();
  const given = Number(params.get('nest'));
  const nest = useQuery({
    queryKey: [...NESTS_QUERY, 'egg-nest', id],
    queryFn: async () => {
      const found = await findEggNest(id);
      if (found === null) throw new HttpError('Not found', 404, null);
      return found;
    },
    enabled: !(given > 0),
  });
  const nestId = given > 0 ? given : nest.data;
  const egg = useQuery({
    queryKey: eggQueryKey(id),
    queryFn: () => getEgg(nestId!, id),
    enabled: nestId !== undefined,
  });

  if (!egg.data) {
    return (
      <AdminPage title={t('nests.egg')}>
        {nest.error ? (
          <ItemLoader query={nest}>{() => null}</ItemLoader>
        ) : (
          <ItemLoader query={egg}>{() => null}</ItemLoader>
        )}
      </AdminPage>
    );
  }
  return <EggView egg={egg.data} />;
}

function EggView({ egg }: { egg: AdminEgg }) {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const navigate = useNavigate();

  const remove = async () => {
    await deleteEgg(egg.nestId, egg.id);
    // Leave first: refreshing the area's lists while this page is open would ask for the deleted egg.
    await navigate(`/admin/nests/view/${egg.nestId}`);
    client.removeQueries({ queryKey: eggQueryKey(egg.id) });
    void client.invalidateQueries({ queryKey: NESTS_QUERY });
    useGlobalStore.getState().addFlash({
      key: ADMIN_FLASH,
      type: 'success',
      message: t('nests.egg_deleted', { name: egg.name }),
    });
  };

  return (
    <AdminPage
      title={egg.name}
      description={egg.description || undefined}
      actions={
        <>
          <EggTestButton egg={egg} />
          <a
            href={eggExportUrl(egg.nestId, egg.id)}
            download
            className={EXPORT}
            aria-label={t('nests.export_egg', { name: egg.name })}
          >
            {t('nests.export')}
          </a>
          <ConfirmAction
            label={t('nests.delete_egg')}
            title={t('nests.delete_egg_title', { name: egg.name })}
            confirmLabel={t('nests.delete_egg_confirm')}
            message={t('nests.delete_egg_message', { name: egg.name })}
            onConfirm={remove}
          />
        </>
      }
    >
      <Tabs
        label={t('nests.egg_tabs_label')}
        tabs={(['', 'variables', 'script'] as const).map((tab) => ({
          to: eggHref(egg, tab),
          label: t(`nests.tab.${tab || 'configuration'}`),
          end: tab === '',
        }))}
      />
      <Outlet context={{ egg } satisfies EggOutlet} />
    </AdminPage>
  );
}
