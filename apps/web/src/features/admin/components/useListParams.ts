import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { ListQuery } from '../../../api/application/http.ts';
import { parsePage } from '../../dashboard/pagination.ts';

export interface ListParams {
  page: number;
  search: string;
  /** `name` ascending, `-name` descending, '' for the API's default order. */
  sort: string;
  /** Only the filter names the list declared; '' when unset. */
  filters: Record<string, string>;
  /** The same, ready for the api/application list functions. */
  query: ListQuery;
  setPage: (page: number) => void;
  setSearch: (search: string) => void;
  setSort: (sort: string) => void;
  /** Clicking a column: ascending first, then toggles. */
  toggleSort: (field: string) => void;
  setFilter: (name: string, value: string) => void;
  /** Address of another page of this list, keeping search, sort and filters. */
  pageHref: (page: number) => string;
}

/**
 * A list's page, search, sort and filters, kept in the address bar (`?page=2&search=ab&sort=-name
 * &node_id=3`) so a list can be bookmarked, shared and restored with Back. Changing the search,
 * sort or a filter returns to page 1; typing replaces the history entry instead of adding one.
 */
export function useListParams(options: { filters?: readonly string[] } = {}): ListParams {
  const [params, setParams] = useSearchParams();
  const filterNames = options.filters ?? [];
  const filterKey = filterNames.join(',');

  const page = parsePage(params.get('page'));
  const search = params.get('search') ?? '';
  const sort = params.get('sort') ?? '';
  const filtersJson = JSON.stringify(filterNames.map((name) => params.get(name) ?? ''));

  const filters = useMemo(() => {
    const values = JSON.parse(filtersJson) as string[];
    return Object.fromEntries(
      filterKey
        .split(',')
        .filter(Boolean)
        .map((name, i) => [name, values[i] ?? '']),
    );
  }, [filterKey, filtersJson]);

  const query = useMemo<ListQuery>(
    () => ({ page, search: search || undefined, sort: sort || undefined, filters }),
    [page, search, sort, filters],
  );

  const update = useCallback(
    (changes: Record<string, string>, { keepPage = false, replace = false } = {}) => {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(changes)) {
            if (value === '') next.delete(key);
            else next.set(key, value);
          }
          if (!keepPage) next.delete('page');
          return next;
        },
        { replace },
      );
    },
    [setParams],
  );

  const pageHref = useCallback(
    (target: number) => {
      const next = new URLSearchParams(params);
      if (target <= 1) next.delete('page');
      else next.set('page', String(target));
      const qs = next.toString();
      return qs ? `?${qs}` : '?';
    },
    [params],
  );

  return {
    page,
    search,
    sort,
    filters,
    query,
    setPage: (target) => update({ page: target <= 1 ? '' : String(target) }, { keepPage: true }),
    setSearch: (text) => update({ search: text.trim() }, { replace: true }),
    setSort: (value) => update({ sort: value }),
    toggleSort: (field) => update({ sort: sort === field ? `-${field}` : field }),
    setFilter: (name, value) => update({ [name]: value }),
    pageHref,
  };
}
