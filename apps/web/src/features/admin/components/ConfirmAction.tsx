import { useState, type ReactNode } from 'react';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { Button, type ButtonProps } from '../../../components/Button.tsx';
import { ConfirmationModal } from '../../../components/ConfirmationModal.tsx';

/**
 * A button that asks first. `onConfirm` runs when confirmed; while it runs the dialog shows a
 * spinner and cannot be dismissed; if it fails the dialog stays open and says why in words.
 */
export function ConfirmAction({
  label,
  title,
  confirmLabel,
  message,
  onConfirm,
  variant = 'danger',
  disabled,
  className,
  ariaLabel,
}: {
  label: ReactNode;
  /** The button's accessible name when the visible label is not unique on the page ("Delete location eu"). */
  ariaLabel?: string;
  title: string;
  confirmLabel: string;
  message: ReactNode;
  onConfirm: () => Promise<unknown>;
  variant?: ButtonProps['variant'];
  disabled?: boolean;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = () => {
    setBusy(true);
    setError(null);
    onConfirm().then(
      () => {
        setBusy(false);
        setOpen(false);
      },
      (cause: unknown) => {
        setBusy(false);
        setError(httpErrorToHuman(cause));
      },
    );
  };

  return (
    <>
      <Button
        variant={variant}
        disabled={disabled}
        className={className}
        aria-label={ariaLabel}
        onClick={() => setOpen(true)}
      >
        {label}
      </Button>
      <ConfirmationModal
        visible={open}
        title={title}
        buttonText={confirmLabel}
        busy={busy}
        onConfirmed={confirm}
        onDismissed={() => {
          setOpen(false);
          setError(null);
        }}
      >
        {message}
        {/* ConfirmationModal puts its message in a <p>: the error is a span, not a MessageBox div. */}
        {error && (
          <span
            role="alert"
            className="mt-4 block rounded-md border border-red-500/60 bg-red-950/60 px-3 py-2 text-red-100"
          >
            {error}
          </span>
        )}
      </ConfirmationModal>
    </>
  );
}
