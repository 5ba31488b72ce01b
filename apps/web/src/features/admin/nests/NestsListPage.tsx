import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createNest, listNests, type AdminNest } from '../../../api/application/nests.ts';
import { Button } from '../../../components/Button.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { AdminList, AdminPage, type Column } from '../components/index.ts';
import { NestForm } from './NestForm.tsx';

export const NESTS_QUERY = ['admin', 'nests'] as const;

/** /admin/nests: groups of eggs (the game types servers are made from). */
export function NestsListPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const columns: Column<AdminNest>[] = [
    { id: 'name', header: t('nests.name'), cell: (n) => n.name },
    {
      id: 'description',
      header: t('nests.description_label'),
      hideBelow: 'sm',
      cell: (n) => n.description || '—',
    },
    {
      id: 'eggs',
      header: t('nests.eggs'),
      className: 'tabular-nums',
      cell: (n) => (n.eggIds === null ? '—' : n.eggIds.length),
    },
    { id: 'author', header: t('nests.author'), hideBelow: 'md', cell: (n) => n.author },
  ];
  return (
    <AdminPage
      title={t('nests.title')}
      description={t('nests.description')}
      actions={<Button onClick={() => setCreating(true)}>{t('nests.create')}</Button>}
    >
      <Modal visible={creating} onDismissed={() => setCreating(false)} title={t('nests.create_title')}>
        <NestForm
          submitLabel={t('nests.create')}
          onSubmit={async (body) => {
            const nest = await createNest(body);
            await client.invalidateQueries({ queryKey: NESTS_QUERY });
            setCreating(false);
            void navigate(`/admin/nests/view/${nest.id}`);
          }}
        />
      </Modal>
      <AdminList
        queryKey={NESTS_QUERY}
        fetchPage={listNests}
        label={t('nests.title')}
        searchLabel={t('nests.search')}
        emptyText={t('nests.empty')}
        columns={columns}
        rowKey={(n) => n.id}
        rowHref={(n) => `/admin/nests/view/${n.id}`}
      />
    </AdminPage>
  );
}
