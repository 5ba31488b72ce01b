import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/Button.tsx';
import type { ListParams } from '../components/index.ts';

const INPUT =
  'focus-ring block w-full rounded-md border border-zinc-700 bg-zinc-900 px-3 py-2 text-sm text-zinc-100 placeholder-zinc-500 hover:border-zinc-500';

/**
 * Filters of the allocations list, kept in the address bar: IP and port (exact, applied with
 * Enter or the button) and all / free only (at once). The API has no "assigned only" filter.
 */
export function AllocationFilters({ list }: { list: ListParams }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [, setParams] = useSearchParams();
  const [ip, setIp] = useState(list.filters.ip ?? '');
  const [port, setPort] = useState(list.filters.port ?? '');
  useEffect(() => setIp(list.filters.ip ?? ''), [list.filters.ip]);
  useEffect(() => setPort(list.filters.port ?? ''), [list.filters.port]);

  // Both at once (two setFilter calls in one tick would each start from the same address).
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      for (const [name, value] of [
        ['ip', ip.trim()],
        ['port', port.trim()],
      ] as const) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
      next.delete('page');
      return next;
    });
  };

  return (
    <form
      role="search"
      aria-label={t('nodes.alloc.filters')}
      onSubmit={apply}
      className="grid grid-cols-2 gap-2 sm:flex sm:items-end"
    >
      <div className="min-w-0 sm:w-44">
        <label htmlFor={`${id}-ip`} className="block text-xs font-semibold text-zinc-400 uppercase">
          {t('nodes.alloc.filter_ip')}
        </label>
        <input id={`${id}-ip`} value={ip} onChange={(e) => setIp(e.target.value)} className={INPUT} />
      </div>
      <div className="min-w-0 sm:w-28">
        <label htmlFor={`${id}-port`} className="block text-xs font-semibold text-zinc-400 uppercase">
          {t('nodes.alloc.filter_port')}
        </label>
        <input
          id={`${id}-port`}
          inputMode="numeric"
          value={port}
          onChange={(e) => setPort(e.target.value)}
          className={INPUT}
        />
      </div>
      <div className="min-w-0 sm:w-40">
        <label htmlFor={`${id}-show`} className="block text-xs font-semibold text-zinc-400 uppercase">
          {t('nodes.alloc.filter_show')}
        </label>
        <select
          id={`${id}-show`}
          value={list.filters.show ?? ''}
          onChange={(e) => list.setFilter('show', e.target.value)}
          className={INPUT}
        >
          <option value="">{t('nodes.alloc.show_all')}</option>
          <option value="free">{t('nodes.alloc.show_free')}</option>
        </select>
      </div>
      <Button type="submit" variant="secondary" className="self-end">
        {t('nodes.alloc.apply_filters')}
      </Button>
    </form>
  );
}
