import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Allocation } from '../../../api/network.ts';
import { Button } from '../../../components/Button.tsx';
import { ConfirmationModal } from '../../../components/ConfirmationModal.tsx';
import { allocationAddress } from '../../../lib/shared.ts';

/** Remove, after a confirmation naming the address; the list drops it once confirmed. */
export function DeleteAllocationButton({
  allocation,
  onConfirmed,
}: {
  allocation: Allocation;
  onConfirmed: (allocation: Allocation) => void;
}) {
  const { t } = useTranslation('network');
  const [open, setOpen] = useState(false);
  const address = allocationAddress(allocation);
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)} aria-label={t('delete_label', { address })}>
        {t('delete')}
      </Button>
      <ConfirmationModal
        visible={open}
        title={t('delete_title')}
        buttonText={t('delete_confirm')}
        onDismissed={() => setOpen(false)}
        onConfirmed={() => {
          setOpen(false);
          onConfirmed(allocation);
        }}
      >
        {t('delete_text', { address })}
      </ConfirmationModal>
    </>
  );
}
