import { useTranslation } from 'react-i18next';

export function Spinner({ size = 'normal', label }: { size?: 'small' | 'normal' | 'large'; label?: string }) {
  const dims =
    size === 'small' ? 'h-4 w-4 border-2' : size === 'large' ? 'h-12 w-12 border-4' : 'h-8 w-8 border-[3px]';
  return (
    <span
      role="status"
      aria-label={label}
      className={`inline-block animate-spin rounded-full border-zinc-500 border-t-sky-400 ${dims}`}
    />
  );
}

/** Full-area spinner for pages and lazily loaded routes. */
export function CenteredSpinner() {
  const { t } = useTranslation('common', { useSuspense: false });
  return (
    <div className="flex w-full justify-center py-16">
      <Spinner size="large" label={t('modal.loading', 'Loading…')} />
    </div>
  );
}

/** Covers its positioned parent while work is in progress. */
export function SpinnerOverlay({ visible }: { visible: boolean }) {
  if (!visible) return null;
  return (
    <div
      data-testid="spinner-overlay"
      className="absolute inset-0 z-10 flex items-center justify-center rounded-lg bg-zinc-950/70"
    >
      <Spinner size="large" />
    </div>
  );
}
