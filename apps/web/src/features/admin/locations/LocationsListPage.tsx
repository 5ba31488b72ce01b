import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { deleteLocation, listLocations, type AdminLocation } from '../../../api/application/locations.ts';
import { useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { ADMIN_FLASH, AdminList, AdminPage, ConfirmAction, type Column } from '../components/index.ts';
import { LocationFormModal } from './LocationFormModal.tsx';

export const LOCATIONS_QUERY = ['admin', 'locations'] as const;

function flashSuccess(message: string) {
  const store = useGlobalStore.getState();
  store.clearFlashes(ADMIN_FLASH);
  store.addFlash({ key: ADMIN_FLASH, type: 'success', message });
}

/**
 * /admin/locations: the places nodes are grouped by (a short code and a description), with how
 * many nodes and servers each has; created and edited in a dialog, deleted after a confirmation.
 */
export function LocationsListPage() {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  /** undefined: dialog closed; null: creating; a location: editing it. */
  const [editing, setEditing] = useState<AdminLocation | null | undefined>(undefined);

  const saved = (location: AdminLocation, created: boolean) => {
    setEditing(undefined);
    void client.invalidateQueries({ queryKey: LOCATIONS_QUERY });
    flashSuccess(
      created
        ? t('locations.created', { short: location.short })
        : t('locations.saved', { short: location.short }),
    );
  };

  const remove = async (location: AdminLocation) => {
    await deleteLocation(location.id);
    await client.invalidateQueries({ queryKey: LOCATIONS_QUERY });
    flashSuccess(t('locations.deleted', { short: location.short }));
  };

  const columns: Column<AdminLocation>[] = [
    {
      id: 'short',
      header: t('locations.short'),
      sortKey: 'short',
      className: 'font-medium whitespace-nowrap text-zinc-100',
      cell: (l) => l.short,
    },
    {
      id: 'long',
      header: t('locations.long'),
      hideBelow: 'sm',
      className: 'text-zinc-300',
      cell: (l) => l.long ?? '—',
    },
    { id: 'nodes', header: t('locations.nodes'), className: 'tabular-nums', cell: (l) => l.nodeCount ?? '—' },
    {
      id: 'servers',
      header: t('locations.servers'),
      hideBelow: 'sm',
      className: 'tabular-nums',
      cell: (l) => l.serverCount ?? '—',
    },
    {
      id: 'actions',
      header: t('locations.actions'),
      cell: (l) => (
        <span className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            className="px-3 py-1"
            aria-label={t('locations.edit_named', { short: l.short })}
            onClick={() => setEditing(l)}
          >
            {t('locations.edit')}
          </Button>
          <ConfirmAction
            label={t('common.delete')}
            ariaLabel={t('locations.delete_named', { short: l.short })}
            title={t('locations.delete_title', { short: l.short })}
            confirmLabel={t('locations.delete_confirm')}
            message={t('locations.delete_message', { short: l.short })}
            onConfirm={() => remove(l)}
            className="px-3 py-1"
          />
        </span>
      ),
    },
  ];

  return (
    <AdminPage
      title={t('locations.title')}
      description={t('locations.description')}
      actions={<Button onClick={() => setEditing(null)}>{t('locations.create')}</Button>}
    >
      <AdminList
        queryKey={LOCATIONS_QUERY}
        fetchPage={listLocations}
        include={['nodes', 'servers']}
        label={t('locations.title')}
        searchLabel={t('locations.search')}
        emptyText={t('locations.empty')}
        columns={columns}
        rowKey={(l) => l.id}
      />
      <LocationFormModal
        visible={editing !== undefined}
        location={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={saved}
      />
    </AdminPage>
  );
}
