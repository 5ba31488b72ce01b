import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { reinstallServer } from '../../../api/serverSettings.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { ConfirmationModal } from '../../../components/ConfirmationModal.tsx';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { useServerStore } from '../store.ts';
import { SETTINGS_FLASH } from './flash.ts';

/**
 * Reinstall Server (spec 001 §2, §8): asks first, then starts the reinstall. The daemon's
 * `install started` event switches the area to the installer notice; the flash says it began.
 */
export function ReinstallServer() {
  const { t } = useTranslation('server');
  const server = useServerStore((s) => s.server)!;
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  const reinstall = async () => {
    const store = useGlobalStore.getState();
    store.clearFlashes(SETTINGS_FLASH);
    setBusy(true);
    try {
      await reinstallServer(server.id);
      store.addFlash({
        key: SETTINGS_FLASH,
        type: 'success',
        title: t('common:flash.success'),
        message: t('settings.reinstall_started'),
      });
    } catch (error) {
      flashError(SETTINGS_FLASH, httpErrorToHuman(error));
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };

  return (
    <ContentBox title={t('settings.reinstall_title')}>
      <p className="text-sm text-zinc-300">{t('settings.reinstall_text')}</p>
      <div className="mt-4 flex justify-end">
        <Button variant="danger" onClick={() => setAsking(true)}>
          {t('settings.reinstall_button')}
        </Button>
      </div>
      <ConfirmationModal
        visible={asking}
        title={t('settings.reinstall_confirm_title')}
        buttonText={t('settings.reinstall_confirm_button')}
        busy={busy}
        onConfirmed={() => void reinstall()}
        onDismissed={() => setAsking(false)}
      >
        {t('settings.reinstall_confirm_text')}
      </ConfirmationModal>
    </ContentBox>
  );
}
