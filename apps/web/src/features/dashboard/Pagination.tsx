import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { pageAddress, pageWindow } from './pagination.ts';

const ITEM =
  'focus-ring inline-flex h-9 min-w-9 items-center justify-center rounded-md px-2 text-sm text-zinc-300 hover:bg-zinc-800';

/** Page links: current−2 … current+5, plus jumps to the first and last page when out of the window. */
export function Pagination({ current, total }: { current: number; total: number }) {
  const { t } = useTranslation('dashboard');
  if (total <= 1) return null;
  const pages = pageWindow(current, total);
  return (
    <nav aria-label={t('pagination')} className="mt-6 flex flex-wrap items-center justify-center gap-1">
      {pages[0]! > 1 && (
        <Link to={pageAddress(1)} className={ITEM} aria-label={t('first_page')}>
          «
        </Link>
      )}
      {pages.map((page) => (
        <Link
          key={page}
          to={pageAddress(page)}
          aria-current={page === current ? 'page' : undefined}
          className={`${ITEM} ${page === current ? 'bg-sky-700 text-white hover:bg-sky-700' : ''}`}
        >
          {page}
        </Link>
      ))}
      {pages[pages.length - 1]! < total && (
        <Link to={pageAddress(total)} className={ITEM} aria-label={t('last_page')}>
          »
        </Link>
      )}
    </nav>
  );
}
