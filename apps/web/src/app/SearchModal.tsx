import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getServers } from '../api/servers.ts';
import { httpErrorToHuman } from '../api/errors.ts';
import { TextField } from '../components/Field.tsx';
import { Modal } from '../components/Modal.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { allocationAddress } from '../lib/shared.ts';
import { FlashMessageRender } from './FlashMessageRender.tsx';
import { flashError, useGlobalStore } from './store.ts';

/** Search constants (spec 000 §9). */
export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_DEBOUNCE_MS = 500;
export const SEARCH_MAX_RESULTS = 5;

/** The term after the user stopped typing for the debounce delay. */
function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** Server search (spec 000 §2 "Search modal"); root admins search every server. */
export function SearchModal({ visible, onDismissed }: { visible: boolean; onDismissed: () => void }) {
  const { t } = useTranslation('common');
  const rootAdmin = useGlobalStore((s) => s.user?.rootAdmin ?? false);
  const [term, setTerm] = useState('');
  const settled = useDebounced(term.trim(), SEARCH_DEBOUNCE_MS);
  const ready = settled.length >= SEARCH_MIN_LENGTH;
  const results = useQuery({
    queryKey: ['search', settled, rootAdmin],
    queryFn: () => getServers(1, { query: settled, type: rootAdmin ? 'admin-all' : undefined }),
    enabled: visible && ready,
  });

  useEffect(() => {
    if (!visible) setTerm('');
  }, [visible]);

  // A failed search is an error flash keyed `search` (spec 000 §8), shown inside the modal.
  const failure = visible && ready && results.isError ? httpErrorToHuman(results.error) : null;
  useEffect(() => {
    if (failure !== null) flashError('search', failure);
    else useGlobalStore.getState().clearFlashes('search');
  }, [failure]);

  const tooShort = term.trim().length > 0 && term.trim().length < SEARCH_MIN_LENGTH;
  const items = ready ? (results.data?.items ?? []).slice(0, SEARCH_MAX_RESULTS) : [];

  return (
    <Modal visible={visible} onDismissed={onDismissed} title={t('search_modal.title')}>
      <TextField
        label={t('search_modal.label')}
        hint={t('search_modal.hint')}
        value={term}
        autoFocus
        onChange={(e) => setTerm(e.target.value)}
        error={tooShort ? t('search_modal.min') : undefined}
        touched={tooShort}
      />
      <div className="mt-4" aria-live="polite">
        {ready && results.isFetching && !results.data ? (
          <div className="flex justify-center py-4">
            <Spinner size="small" />
          </div>
        ) : ready && results.isError ? (
          <FlashMessageRender byKey="search" />
        ) : ready && results.data && items.length === 0 ? (
          <p className="text-sm text-zinc-400">{t('search_modal.none')}</p>
        ) : (
          <ul className="space-y-2">
            {items.map((server) => (
              <li key={server.uuid}>
                <Link
                  to={`/server/${server.id}`}
                  onClick={onDismissed}
                  data-testid="search-result"
                  className="focus-ring flex items-center justify-between gap-3 rounded-md border border-zinc-800 bg-zinc-900 px-3 py-2 hover:border-zinc-600"
                >
                  <span className="min-w-0">
                    <span className="block truncate text-sm font-medium text-zinc-100">{server.name}</span>
                    <span className="block truncate font-mono text-xs text-zinc-400">
                      {server.allocations
                        .filter((a) => a.isDefault)
                        .map(allocationAddress)
                        .join(', ')}
                    </span>
                  </span>
                  <span className="shrink-0 rounded bg-zinc-800 px-2 py-1 text-xs text-zinc-300">
                    {server.node}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}

/** True when typing goes somewhere: the shortcut must not fire while the user writes text. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target.tagName === 'INPUT' ||
    target.tagName === 'TEXTAREA' ||
    target.tagName === 'SELECT'
  );
}

/**
 * Whether the keyboard is an Apple one, where the meta key is ⌘. Elsewhere the spec's meta key is
 * the Windows/Super key, which the system keeps for itself, so Ctrl + `/` opens the search there.
 */
export function isApplePlatform(nav: Pick<Navigator, 'platform' | 'userAgent'> = navigator): boolean {
  return /mac|iphone|ipad|ipod/i.test(nav.platform || nav.userAgent);
}

/** The shortcut as this platform's keyboard writes it, for the search button's tooltip. */
export function searchShortcutKeys(apple = isApplePlatform()): string {
  return apple ? '⌘ /' : 'Ctrl /';
}

/**
 * Meta + `/` (spec 000 §2), or Ctrl + `/` (the same shortcut on Linux and Windows), outside inputs
 * opens the search. Both work everywhere: a Mac user on a PC keyboard has both keys too.
 */
export function useSearchShortcut(open: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key === '/' && !isTypingTarget(event.target)) {
        event.preventDefault();
        open();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
}
