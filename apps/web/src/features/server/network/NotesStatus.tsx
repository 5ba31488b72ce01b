import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/Spinner.tsx';
import type { NotesState } from './useAllocationNotes.ts';

/** The small "Saving…" / "Saved" note beside an allocation's notes; nothing while untouched. */
export function NotesStatus({ state }: { state: NotesState }) {
  const { t } = useTranslation('network');
  if (state === 'idle') return null;
  if (state === 'waiting' || state === 'saving') {
    return (
      <span className="inline-flex items-center gap-1.5 text-xs text-zinc-400">
        <Spinner size="small" />
        {t('saving')}
      </span>
    );
  }
  return state === 'saved' ? (
    <span className="text-xs text-emerald-400">✓ {t('saved')}</span>
  ) : (
    <span className="text-xs text-red-400">{t('not_saved')}</span>
  );
}
