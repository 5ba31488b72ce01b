import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button.tsx';
import { Modal } from './Modal.tsx';

export function ConfirmationModal({
  visible,
  title,
  buttonText,
  onConfirmed,
  onDismissed,
  busy = false,
  children,
}: {
  visible: boolean;
  title: string;
  buttonText: string;
  onConfirmed: () => void;
  onDismissed: () => void;
  busy?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  return (
    <Modal visible={visible} title={title} onDismissed={onDismissed} showSpinnerOverlay={busy}>
      <p className="text-sm text-zinc-300">{children}</p>
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDismissed} disabled={busy}>
          {t('modal.cancel')}
        </Button>
        <Button variant="danger" onClick={onConfirmed} disabled={busy}>
          {buttonText}
        </Button>
      </div>
    </Modal>
  );
}
