import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { updateNodeAllocation, type NodeAllocation } from '../../../api/application/nodes.ts';
import { HttpError, httpErrorToHuman } from '../../../api/errors.ts';
import { Button } from '../../../components/Button.tsx';

const INPUT =
  'focus-ring block w-full min-w-0 rounded-md border border-zinc-700 bg-zinc-900 px-2 py-1 text-sm text-zinc-100 hover:border-zinc-500';

function address(a: { ip: string; port: number }) {
  return `${a.ip.includes(':') ? `[${a.ip}]` : a.ip}:${a.port}`;
}

/** IP:port, with the alias players see under it. */
export function AllocationText({ allocation }: { allocation: NodeAllocation }) {
  return (
    <span className="block min-w-0">
      <code className="text-zinc-100">{address(allocation)}</code>
      {allocation.alias && <span className="block truncate text-xs text-zinc-400">{allocation.alias}</span>}
    </span>
  );
}

/**
 * Alias and notes of one allocation, edited in its row (PATCH extension). Enter saves, Escape
 * cancels; a refusal stays in the row in the API's words.
 */
export function AllocationEditor({
  nodeId,
  allocation,
  onDone,
}: {
  nodeId: number;
  allocation: NodeAllocation;
  onDone: (saved: boolean) => void;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [alias, setAlias] = useState(allocation.alias ?? '');
  const [notes, setNotes] = useState(allocation.notes ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const where = address(allocation);

  const save = () => {
    if (alias.trim().length > 191) return setError(t('nodes.alloc.alias_too_long'));
    if (notes.trim().length > 256) return setError(t('nodes.alloc.notes_too_long'));
    setBusy(true);
    setError(null);
    updateNodeAllocation(nodeId, allocation.id, {
      alias: alias.trim() || null,
      notes: notes.trim() || null,
    }).then(
      () => onDone(true),
      (cause: unknown) => {
        setBusy(false);
        const entries =
          cause instanceof HttpError
            ? (cause.data as { errors?: { detail?: string }[] } | null)?.errors
            : null;
        setError(
          entries
            ?.map((e) => e.detail)
            .filter(Boolean)
            .join(' ') || httpErrorToHuman(cause),
        );
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onDone(false);
    }
  };

  return (
    <div className="min-w-48 space-y-2" onKeyDown={onKeyDown}>
      <code className="text-zinc-100">{where}</code>
      <label htmlFor={`${id}-alias`} className="sr-only">
        {t('nodes.alloc.alias_of', { address: where })}
      </label>
      <input
        id={`${id}-alias`}
        autoFocus
        value={alias}
        placeholder={t('nodes.alloc.alias')}
        onChange={(e) => setAlias(e.target.value)}
        className={INPUT}
      />
      <label htmlFor={`${id}-notes`} className="sr-only">
        {t('nodes.alloc.notes_of', { address: where })}
      </label>
      <input
        id={`${id}-notes`}
        value={notes}
        placeholder={t('nodes.alloc.notes')}
        onChange={(e) => setNotes(e.target.value)}
        className={INPUT}
      />
      {error && (
        <p role="alert" className="text-xs text-red-400">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button
          className="px-3 py-1"
          isLoading={busy}
          onClick={save}
          aria-label={t('nodes.alloc.save_named', { address: where })}
        >
          {t('common.save')}
        </Button>
        <Button variant="ghost" className="px-3 py-1" disabled={busy} onClick={() => onDone(false)}>
          {t('common.cancel')}
        </Button>
      </div>
    </div>
  );
}
