import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Wait after the last key before the list is asked again. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface ListFilter {
  name: string;
  label: string;
  value: string;
  /** The first option should be the "any" choice with value ''. */
  options: { value: string; label: string }[];
}

/**
 * Above a list: a search box (applied 300 ms after typing stops, or at once with Enter) and filter
 * selects. The list itself keeps these in the address bar (useListParams).
 */
export function ListToolbar({
  search,
  onSearch,
  searchLabel,
  filters = [],
  onFilter,
  children,
}: {
  search: string;
  onSearch: (text: string) => void;
  searchLabel: string;
  filters?: ListFilter[];
  onFilter?: (name: string, value: string) => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [text, setText] = useState(search);
  const applied = useRef(search);
  const onSearchRef = useRef(onSearch);
  onSearchRef.current = onSearch;

  // The address bar changed under us (Back, a link): show its search.
  useEffect(() => {
    if (search !== applied.current) {
      applied.current = search;
      setText(search);
    }
  }, [search]);

  useEffect(() => {
    if (text.trim() === applied.current) return;
    const timer = setTimeout(() => {
      applied.current = text.trim();
      onSearchRef.current(text.trim());
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <div role="search" className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-end">
      <div className="min-w-0 flex-1 sm:max-w-sm">
        <label htmlFor={`${id}-search`} className="sr-only">
          {searchLabel}
        </label>
        <input
          id={`${id}-search`}
          type="search"
          value={text}
          placeholder={searchLabel}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              applied.current = text.trim();
              onSearch(text.trim());
            }
          }}
          className="focus-ring block w-full rounded-md border border-zinc-700 bg-zinc-900 px-3 py-2 text-sm text-zinc-100 placeholder-zinc-500 hover:border-zinc-500"
        />
      </div>
      {filters.map((filter) => (
        <div key={filter.name} className="flex items-center gap-2">
          <label htmlFor={`${id}-${filter.name}`} className="text-xs font-semibold text-zinc-400 uppercase">
            {filter.label}
          </label>
          <select
            id={`${id}-${filter.name}`}
            value={filter.value}
            onChange={(event) => onFilter?.(filter.name, event.target.value)}
            className="focus-ring block min-w-0 flex-1 rounded-md border border-zinc-700 bg-zinc-900 px-3 py-2 text-sm text-zinc-100 hover:border-zinc-500 sm:flex-none"
          >
            {filter.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      ))}
      {children}
      <span className="sr-only" aria-live="polite">
        {search ? t('toolbar.searching_for', { text: search }) : ''}
      </span>
    </div>
  );
}
