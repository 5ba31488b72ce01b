import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  deleteNodeAllocation,
  listNodeAllocations,
  type NodeAllocation,
} from '../../../api/application/nodes.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { ConfirmAction, DataTable, Paginator, useListParams, type Column } from '../components/index.ts';
import { AddAllocationsForm } from './AddAllocationsForm.tsx';
import { AllocationEditor, AllocationText } from './AllocationRow.tsx';
import { AllocationFilters } from './AllocationFilters.tsx';
import { flashNodes } from './flash.ts';
import { useAdminNode } from './useAdminNode.ts';

export const FILTERS = ['ip', 'port', 'show'] as const;

function ServerCell({ allocation: a }: { allocation: NodeAllocation }) {
  const { t } = useTranslation('admin');
  if (a.server)
    return (
      <Link
        to={`/admin/servers/view/${a.server.id}`}
        className="focus-ring rounded text-sky-300 hover:underline"
      >
        {a.server.name}
      </Link>
    );
  if (a.assigned) return <>{t('nodes.alloc.in_use')}</>;
  return <span className="text-zinc-500">{t('nodes.alloc.free')}</span>;
}

export function addressOf(a: { ip: string; port: number }): string {
  return `${a.ip.includes(':') ? `[${a.ip}]` : a.ip}:${a.port}`;
}

/**
 * Allocations tab: add addresses and ports, the node's allocations page by page (filters in the
 * address bar), alias and notes edited in the row, free ones deleted one by one or selected.
 */
export function NodeAllocationsTab() {
  const { t } = useTranslation('admin');
  const node = useAdminNode();
  const client = useQueryClient();
  const list = useListParams({ filters: FILTERS });
  const { ip, port, show } = list.filters;
  const query = {
    page: list.page,
    filters: {
      ip: ip || undefined,
      port: port || undefined,
      server_id: show === 'free' ? 'false' : undefined,
    },
  };
  const listKey = ['admin', 'nodes', node.id, 'allocations'];
  const result = useQuery({
    queryKey: [...listKey, query],
    queryFn: () => listNodeAllocations(node.id, query),
    placeholderData: keepPreviousData,
  });
  const rows = result.data?.items;
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [editing, setEditing] = useState<number | null>(null);

  // A selection is of the rows on screen: another page or filter starts a new one.
  const rowIds = rows?.map((r) => r.id).join(',');
  useEffect(() => setSelected(new Set()), [rowIds]);

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: listKey }),
      client.invalidateQueries({ queryKey: ['admin', 'nodes', node.id, 'count'] }),
    ]);

  const free = rows?.filter((r) => !r.assigned) ?? [];
  const allFreeSelected = free.length > 0 && free.every((r) => selected.has(r.id));
  const toggle = (id: number) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const removeOne = async (a: NodeAllocation) => {
    await deleteNodeAllocation(node.id, a.id);
    await refresh();
    flashNodes('success', t('nodes.alloc.deleted', { address: addressOf(a) }));
  };

  const removeSelected = async () => {
    const chosen = (rows ?? []).filter((r) => selected.has(r.id));
    const refused: string[] = [];
    for (const a of chosen) {
      try {
        await deleteNodeAllocation(node.id, a.id);
      } catch (error) {
        refused.push(`${addressOf(a)}: ${httpErrorToHuman(error)}`);
      }
    }
    setSelected(new Set());
    await refresh();
    const done = chosen.length - refused.length;
    if (refused.length === 0) flashNodes('success', t('nodes.alloc.deleted_many', { count: done }));
    else flashNodes('error', t('nodes.alloc.deleted_some', { count: done, refused: refused.join('; ') }));
  };

  const columns: Column<NodeAllocation>[] = [
    {
      id: 'select',
      header: t('nodes.alloc.select'),
      className: 'w-10',
      cell: (a) =>
        a.assigned ? null : (
          <input
            type="checkbox"
            aria-label={t('nodes.alloc.select_one', { address: addressOf(a) })}
            checked={selected.has(a.id)}
            onChange={() => toggle(a.id)}
            className="focus-ring h-4 w-4 accent-sky-500"
          />
        ),
    },
    {
      id: 'address',
      header: t('nodes.alloc.address'),
      cell: (a) =>
        editing === a.id ? (
          <AllocationEditor
            nodeId={node.id}
            allocation={a}
            onDone={(saved) => {
              setEditing(null);
              if (saved) {
                void refresh();
                flashNodes('success', t('nodes.alloc.saved', { address: addressOf(a) }));
              }
            }}
          />
        ) : (
          <>
            <AllocationText allocation={a} />
            {/* On a phone the server column is left out: said here instead. */}
            <span className="mt-1 block text-xs sm:hidden">
              <ServerCell allocation={a} />
            </span>
          </>
        ),
    },
    {
      id: 'server',
      header: t('nodes.alloc.server'),
      hideBelow: 'sm',
      cell: (a) => <ServerCell allocation={a} />,
    },
    {
      id: 'notes',
      header: t('nodes.alloc.notes'),
      hideBelow: 'md',
      cell: (a) => (editing === a.id ? null : <span className="text-zinc-300">{a.notes ?? ''}</span>),
    },
    {
      id: 'actions',
      header: t('nodes.alloc.actions'),
      className: 'text-right whitespace-nowrap',
      cell: (a) =>
        editing === a.id ? null : (
          <span className="inline-flex flex-col items-end gap-1 sm:flex-row sm:gap-2">
            <button
              type="button"
              onClick={() => setEditing(a.id)}
              aria-label={t('nodes.alloc.edit_named', { address: addressOf(a) })}
              className="focus-ring rounded px-2 py-1 text-sm text-sky-300 hover:bg-zinc-800"
            >
              {t('nodes.alloc.edit')}
            </button>
            {!a.assigned && (
              <ConfirmAction
                label={t('common.delete')}
                ariaLabel={t('nodes.alloc.delete_named', { address: addressOf(a) })}
                title={t('nodes.alloc.delete_title', { address: addressOf(a) })}
                confirmLabel={t('nodes.alloc.delete_confirm')}
                message={t('nodes.alloc.delete_message', { address: addressOf(a) })}
                onConfirm={() => removeOne(a)}
                variant="ghost"
                className="px-2 py-1 text-red-300 hover:text-red-200"
              />
            )}
          </span>
        ),
    },
  ];

  const filtered = Boolean(ip || port || show);
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,4fr)_minmax(0,9fr)]">
      <div className="min-w-0">
        <AddAllocationsForm nodeId={node.id} onAdded={refresh} />
      </div>
      <div className="min-w-0 space-y-3">
        <AllocationFilters list={list} />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <label className="flex items-center gap-2 text-sm text-zinc-300">
            <input
              type="checkbox"
              checked={allFreeSelected}
              disabled={free.length === 0}
              onChange={() => setSelected(allFreeSelected ? new Set() : new Set(free.map((r) => r.id)))}
              className="focus-ring h-4 w-4 accent-sky-500"
            />
            {t('nodes.alloc.select_all')}
          </label>
          <ConfirmAction
            label={t('nodes.alloc.delete_selected', { count: selected.size })}
            ariaLabel={t('nodes.alloc.delete_selected_label')}
            disabled={selected.size === 0}
            title={t('nodes.alloc.delete_selected_title', { count: selected.size })}
            confirmLabel={t('nodes.alloc.delete_selected_confirm', { count: selected.size })}
            message={t('nodes.alloc.delete_selected_message', { count: selected.size })}
            onConfirm={removeSelected}
          />
        </div>
        <DataTable
          label={t('nodes.alloc.table')}
          columns={columns}
          rows={rows}
          rowKey={(a) => a.id}
          isLoading={result.isPending || result.isPlaceholderData}
          error={result.error}
          onRetry={() => void result.refetch()}
          emptyText={filtered ? t('table.no_match') : t('nodes.alloc.empty')}
        />
        {result.data && <Paginator pagination={result.data.pagination} hrefFor={list.pageHref} />}
      </div>
    </div>
  );
}
