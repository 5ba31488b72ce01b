import type { ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ListQuery, Page } from '../../../api/application/http.ts';
import { DataTable, type Column } from './DataTable.tsx';
import { ListToolbar, type ListFilter } from './ListToolbar.tsx';
import { Paginator } from './Paginator.tsx';
import { useListParams } from './useListParams.ts';

/**
 * A whole admin list: search box and filters, the table with sortable columns, and pages, all kept
 * in the address bar. `fetchPage` is an api/application list function (listUsers, listNodes…).
 * The previous page stays on screen while the next one loads.
 */
export function AdminList<T>({
  queryKey,
  fetchPage,
  label,
  searchLabel,
  emptyText,
  columns,
  rowKey,
  rowHref,
  filters = [],
  include,
  toolbarExtra,
  extraFilters = [],
}: {
  /** e.g. ['admin', 'users']; the list's query is appended. */
  queryKey: readonly unknown[];
  fetchPage: (query: ListQuery) => Promise<Page<T>>;
  label: string;
  searchLabel: string;
  /** Said when the list is empty; a search or filter with no match says so instead. */
  emptyText: string;
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  rowHref?: (row: T) => string;
  /** Filter selects; their values live in the address bar under `name`, sent as filter[name]. */
  filters?: Omit<ListFilter, 'value'>[];
  include?: string[];
  toolbarExtra?: ReactNode;
  /**
   * More filter names kept in the address bar and sent as filter[name], for filters the page draws
   * itself in `toolbarExtra` (e.g. a UserPicker that calls useListParams().setFilter).
   */
  extraFilters?: string[];
}) {
  const { t } = useTranslation('admin');
  const list = useListParams({ filters: [...filters.map((f) => f.name), ...extraFilters] });
  const query: ListQuery = { ...list.query, include };
  const result = useQuery({
    queryKey: [...queryKey, query],
    queryFn: () => fetchPage(query),
    placeholderData: keepPreviousData,
  });

  return (
    <div className="space-y-3">
      <ListToolbar
        search={list.search}
        onSearch={list.setSearch}
        searchLabel={searchLabel}
        filters={filters.map((f) => ({ ...f, value: list.filters[f.name] ?? '' }))}
        onFilter={list.setFilter}
      >
        {toolbarExtra}
      </ListToolbar>
      <DataTable
        label={label}
        columns={columns}
        rows={result.data?.items}
        rowKey={rowKey}
        rowHref={rowHref}
        isLoading={result.isPending || result.isPlaceholderData}
        error={result.error}
        onRetry={() => void result.refetch()}
        emptyText={list.search || Object.values(list.filters).some(Boolean) ? t('table.no_match') : emptyText}
        sort={list.sort}
        onSort={list.toggleSort}
      />
      {result.data && <Paginator pagination={result.data.pagination} hrefFor={list.pageHref} />}
    </div>
  );
}
