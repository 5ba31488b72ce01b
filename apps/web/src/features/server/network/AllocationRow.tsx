import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Allocation } from '../../../api/network.ts';
import { Button } from '../../../components/Button.tsx';
import { CopyOnClick } from '../../../components/CopyOnClick.tsx';
import { allocationAddress, can } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { DeleteAllocationButton } from './DeleteAllocationButton.tsx';
import { NotesStatus } from './NotesStatus.tsx';
import { useAllocationNotes } from './useAllocationNotes.ts';
import type { NetworkActions } from './useNetworkActions.ts';

const NetworkIcon = () => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    strokeLinecap="round"
    strokeLinejoin="round"
    className="h-6 w-6"
    aria-hidden="true"
  >
    <rect x="3" y="3" width="18" height="7" rx="1.5" />
    <rect x="3" y="14" width="18" height="7" rx="1.5" />
    <path d="M7 6.5h.01M7 17.5h.01M11 6.5h6M11 17.5h6" />
  </svg>
);

/**
 * One allocation (spec 001 §3, §4): its address to copy, its notes (saved as typed with
 * allocation.update, read-only without), and either the 'Primary' badge or the actions the
 * caller's permissions allow.
 */
export function AllocationRow({ allocation, actions }: { allocation: Allocation; actions: NetworkActions }) {
  const { t } = useTranslation('network');
  const permissions = useServerStore((s) => s.permissions);
  const mayUpdate = can(permissions, 'allocation.update');
  const mayDelete = can(permissions, 'allocation.delete');
  const notes = useAllocationNotes(allocation, mayUpdate, actions.notesSaved);
  const id = useId();
  const address = allocationAddress(allocation);

  return (
    <li
      data-testid={`allocation-${allocation.id}`}
      className="grid grid-cols-1 gap-4 rounded-lg border border-zinc-800 bg-zinc-900/80 p-4 shadow-sm sm:p-5 md:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_14.5rem] md:items-center"
    >
      <div className="flex min-w-0 items-center gap-3">
        <span className="hidden shrink-0 text-zinc-500 sm:block">
          <NetworkIcon />
        </span>
        <div className="min-w-0">
          <CopyOnClick text={address} className="block max-w-full font-mono text-sm break-all text-zinc-100">
            {address}
          </CopyOnClick>
          <p className="mt-0.5 text-xs text-zinc-500">
            {allocation.alias ? t('alias_of', { ip: allocation.ip }) : t('ip_address')}
          </p>
        </div>
      </div>
      <div className="min-w-0 space-y-1">
        <div className="flex items-center justify-between gap-2">
          <label
            htmlFor={`${id}-notes`}
            className="text-xs font-semibold tracking-wide text-zinc-400 uppercase"
          >
            {t('notes')}
          </label>
          <NotesStatus state={notes.state} />
        </div>
        <textarea
          id={`${id}-notes`}
          rows={2}
          value={notes.value}
          readOnly={!mayUpdate}
          placeholder={mayUpdate ? t('notes_placeholder') : t('notes_none')}
          aria-describedby={mayUpdate ? undefined : `${id}-lock`}
          onChange={(event) => notes.change(event.currentTarget.value)}
          className={`focus-ring block w-full resize-y rounded-md border bg-zinc-950/60 px-3 py-2 text-sm text-zinc-100 placeholder-zinc-500 ${
            mayUpdate ? 'border-zinc-700 hover:border-zinc-500' : 'border-transparent text-zinc-300'
          }`}
        />
        {!mayUpdate && (
          <p id={`${id}-lock`} className="sr-only">
            {t('notes_locked')}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2 md:justify-end">
        {allocation.isDefault ? (
          <span className="rounded bg-sky-600/20 px-2.5 py-1 text-xs font-semibold tracking-wide text-sky-300 uppercase ring-1 ring-sky-500/40">
            {t('primary')}
          </span>
        ) : (
          <>
            {mayUpdate && (
              <Button
                variant="secondary"
                onClick={() => void actions.makePrimary(allocation)}
                aria-label={t('make_primary_label', { address })}
              >
                {t('make_primary')}
              </Button>
            )}
            {mayDelete && (
              <DeleteAllocationButton allocation={allocation} onConfirmed={(a) => void actions.remove(a)} />
            )}
          </>
        )}
      </div>
    </li>
  );
}
