import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Pagination } from '../../../api/application/http.ts';
import { pageWindow } from '../../dashboard/pagination.ts';

const ITEM =
  'focus-ring inline-flex h-9 min-w-9 items-center justify-center rounded-md px-2 text-sm text-zinc-300 hover:bg-zinc-800';

/**
 * "Showing 51–100 of 230" and page links (the dashboard's window: current−2 … current+5, with
 * jumps to the first and last page). `hrefFor` keeps the list's search, sort and filters.
 */
export function Paginator({
  pagination,
  hrefFor,
}: {
  pagination: Pagination;
  hrefFor: (page: number) => string;
}) {
  const { t } = useTranslation('admin');
  const { currentPage: current, totalPages: total, perPage, total: count } = pagination;
  const first = count === 0 ? 0 : (current - 1) * perPage + 1;
  const last = Math.min(count, current * perPage);
  const pages = pageWindow(current, total);
  return (
    <div className="flex flex-col items-center gap-2 sm:flex-row sm:justify-between">
      <p className="text-xs text-zinc-400">{t('pagination.showing', { first, last, count })}</p>
      {total > 1 && (
        <nav aria-label={t('pagination.label')} className="flex flex-wrap items-center justify-center gap-1">
          {pages[0]! > 1 && (
            <Link to={hrefFor(1)} className={ITEM} aria-label={t('pagination.first')}>
              «
            </Link>
          )}
          {pages.map((page) => (
            <Link
              key={page}
              to={hrefFor(page)}
              aria-current={page === current ? 'page' : undefined}
              aria-label={t('pagination.page', { page })}
              className={`${ITEM} ${page === current ? 'bg-sky-700 text-white hover:bg-sky-700' : ''}`}
            >
              {page}
            </Link>
          ))}
          {pages[pages.length - 1]! < total && (
            <Link to={hrefFor(total)} className={ITEM} aria-label={t('pagination.last')}>
              »
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}
