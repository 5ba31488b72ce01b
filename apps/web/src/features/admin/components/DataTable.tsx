import type { MouseEvent, ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { Button } from '../../../components/Button.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';

export interface Column<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** The API's sort name; makes the header a sort button. */
  sortKey?: string;
  /** Below this width the column is left out (the table also scrolls sideways on a phone). */
  hideBelow?: 'sm' | 'md' | 'lg';
  className?: string;
}

const HIDE = { sm: 'hidden sm:table-cell', md: 'hidden md:table-cell', lg: 'hidden lg:table-cell' } as const;
const CELL = 'px-3 py-2.5 align-middle';

/** `name` → ascending, `-name` → descending, otherwise not sorted by this column. */
function sortState(sort: string | undefined, key: string): 'ascending' | 'descending' | 'none' {
  if (sort === key) return 'ascending';
  if (sort === `-${key}`) return 'descending';
  return 'none';
}

function isInteractive(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('a, button, input, select, textarea, label') !== null;
}

/**
 * The admin lists' table. The first column links to the row's page (keyboard and screen readers
 * use that link; a click anywhere else on the row follows it too). Sortable headers are buttons
 * with aria-sort on their cell. Loading shows placeholder rows, an error says what went wrong in
 * words with a retry, and an empty list says so. On a phone, columns marked hideBelow are left out
 * and a table still too wide scrolls sideways inside its box.
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  rowHref,
  isLoading = false,
  error,
  onRetry,
  emptyText,
  sort,
  onSort,
}: {
  /** Names the table for screen readers. */
  label: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  rowHref?: (row: T) => string;
  isLoading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  emptyText: string;
  sort?: string;
  onSort?: (key: string) => void;
}) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();

  if (error && !rows) {
    return (
      <MessageBox type="error" title={t('table.error_title')}>
        <span className="flex flex-1 flex-wrap items-center justify-between gap-2">
          <span>{httpErrorToHuman(error)}</span>
          {onRetry && (
            <Button variant="secondary" onClick={onRetry}>
              {t('table.retry')}
            </Button>
          )}
        </span>
      </MessageBox>
    );
  }

  const onRowClick = (row: T) => (event: MouseEvent) => {
    if (!rowHref || isInteractive(event.target)) return;
    void navigate(rowHref(row));
  };

  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-800 bg-zinc-900/80">
      <table className="w-full text-left text-sm" aria-label={label} aria-busy={isLoading}>
        <thead className="border-b border-zinc-800 text-xs tracking-wide text-zinc-400 uppercase">
          <tr>
            {columns.map((column) => {
              const state = column.sortKey ? sortState(sort, column.sortKey) : undefined;
              return (
                <th
                  key={column.id}
                  scope="col"
                  aria-sort={state}
                  className={`${CELL} font-semibold ${column.hideBelow ? HIDE[column.hideBelow] : ''}`}
                >
                  {column.sortKey && onSort ? (
                    <button
                      type="button"
                      className="focus-ring -mx-1 inline-flex items-center gap-1 rounded px-1 uppercase hover:text-zinc-100"
                      onClick={() => onSort(column.sortKey!)}
                    >
                      {column.header}
                      <span
                        aria-hidden="true"
                        className={state === 'none' ? 'text-zinc-600' : 'text-sky-400'}
                      >
                        {state === 'descending' ? '▼' : state === 'ascending' ? '▲' : '↕'}
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-800">
          {isLoading && !rows
            ? [0, 1, 2, 3, 4].map((i) => (
                <tr key={i} data-testid="skeleton-row">
                  {columns.map((column) => (
                    <td
                      key={column.id}
                      className={`${CELL} ${column.hideBelow ? HIDE[column.hideBelow] : ''}`}
                    >
                      <span className="block h-4 w-3/4 animate-pulse rounded bg-zinc-800" />
                    </td>
                  ))}
                </tr>
              ))
            : rows?.map((row) => (
                <tr
                  key={rowKey(row)}
                  onClick={onRowClick(row)}
                  className={rowHref ? 'cursor-pointer hover:bg-zinc-800/60' : ''}
                >
                  {columns.map((column, index) => (
                    <td
                      key={column.id}
                      className={`${CELL} ${column.hideBelow ? HIDE[column.hideBelow] : ''} ${column.className ?? ''}`}
                    >
                      {index === 0 && rowHref ? (
                        <Link
                          to={rowHref(row)}
                          className="focus-ring rounded font-medium text-sky-300 hover:underline"
                        >
                          {column.cell(row)}
                        </Link>
                      ) : (
                        column.cell(row)
                      )}
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
      {!isLoading && rows?.length === 0 && (
        <p className="px-4 py-8 text-center text-sm text-zinc-400">{emptyText}</p>
      )}
      {isLoading && !rows && <span className="sr-only">{t('table.loading')}</span>}
    </div>
  );
}
