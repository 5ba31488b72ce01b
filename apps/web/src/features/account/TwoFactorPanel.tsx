import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGlobalStore } from '../../app/store.ts';
import { Button } from '../../components/Button.tsx';
import { DisableTwoFactorModal } from './DisableTwoFactorModal.tsx';
import { SetupTwoFactorModal } from './SetupTwoFactorModal.tsx';

/** Configure Two Factor: Enable or Disable (spec §2, §4). */
export function TwoFactorPanel() {
  const { t } = useTranslation('account');
  const enabled = useGlobalStore((s) => s.user?.useTotp ?? false);
  const [open, setOpen] = useState(false);
  return (
    <div className="flex h-full flex-col justify-between gap-4">
      <p className="text-sm text-zinc-300">
        {enabled ? t('two_factor.enabled_text') : t('two_factor.disabled_text')}
      </p>
      <div className="flex justify-end">
        <Button variant={enabled ? 'danger' : 'primary'} onClick={() => setOpen(true)}>
          {enabled ? t('two_factor.disable') : t('two_factor.enable')}
        </Button>
      </div>
      {enabled ? (
        <DisableTwoFactorModal visible={open} onDismissed={() => setOpen(false)} />
      ) : (
        <SetupTwoFactorModal visible={open} onDismissed={() => setOpen(false)} />
      )}
    </div>
  );
}
