import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { SpinnerOverlay } from './Spinner.tsx';

export interface ModalProps {
  visible: boolean;
  onDismissed: () => void;
  title?: string;
  /** When false, Escape, a background click and the close icon do nothing (spec §2). */
  dismissable?: boolean;
  /** While shown, the modal cannot be dismissed either. */
  showSpinnerOverlay?: boolean;
  children: ReactNode;
  /** Wider modal for content such as recovery codes. */
  size?: 'normal' | 'wide';
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select, [tabindex]:not([tabindex="-1"])';

export function Modal({
  visible,
  onDismissed,
  title,
  dismissable = true,
  showSpinnerOverlay = false,
  children,
  size = 'normal',
}: ModalProps) {
  const { t } = useTranslation('common', { useSuspense: false });
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const canDismiss = dismissable && !showSpinnerOverlay;
  const dismissRef = useRef({ canDismiss, onDismissed });
  dismissRef.current = { canDismiss, onDismissed };
  // The opener is read while the opening render runs: by the time effects run, an autoFocus field
  // inside the modal already holds the focus, and "returning" it there on close would drop it on
  // the page body instead of the button the user opened the modal with.
  const [opener, setOpener] = useState<{ visible: boolean; element: HTMLElement | null }>({
    visible: false,
    element: null,
  });
  if (opener.visible !== visible) {
    setOpener({ visible, element: visible ? (document.activeElement as HTMLElement | null) : null });
  }
  const openerRef = useRef(opener.element);
  openerRef.current = opener.element;

  useEffect(() => {
    if (!visible) return;
    const previous = openerRef.current;
    const first =
      panel.current?.querySelector<HTMLElement>('input, textarea') ??
      panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        if (dismissRef.current.canDismiss) dismissRef.current.onDismissed();
        return;
      }
      if (event.key === 'Tab' && panel.current) {
        const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
        if (items.length === 0) return;
        const firstItem = items[0]!;
        const lastItem = items[items.length - 1]!;
        if (event.shiftKey && document.activeElement === firstItem) {
          event.preventDefault();
          lastItem.focus();
        } else if (!event.shiftKey && document.activeElement === lastItem) {
          event.preventDefault();
          firstItem.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [visible]);

  if (!visible) return null;
  const target = document.getElementById('modal-portal') ?? document.body;
  return createPortal(
    <div
      data-testid="modal-background"
      className="animate-fade fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-black/70 p-4 sm:items-center"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && canDismiss) onDismissed();
      }}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={title ? titleId : undefined}
        tabIndex={-1}
        className={`relative my-8 w-full rounded-lg border border-zinc-700 bg-zinc-900 p-5 shadow-2xl outline-none sm:p-6 ${size === 'wide' ? 'max-w-2xl' : 'max-w-lg'}`}
      >
        {dismissable && (
          <button
            type="button"
            aria-label={t('modal.close')}
            disabled={showSpinnerOverlay}
            onClick={onDismissed}
            className="focus-ring absolute top-3 right-3 rounded p-1 text-zinc-400 hover:bg-zinc-800 hover:text-white disabled:opacity-40"
          >
            <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
              <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        )}
        {title && (
          <h2 id={titleId} className="mb-4 pr-8 text-lg font-semibold text-zinc-100">
            {title}
          </h2>
        )}
        <SpinnerOverlay visible={showSpinnerOverlay} />
        {children}
      </div>
    </div>,
    target,
  );
}
