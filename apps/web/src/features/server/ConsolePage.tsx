import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useGlobalStore } from '../../app/store.ts';
import { can } from '../../lib/shared.ts';
import { MessageBox } from '../../components/MessageBox.tsx';
import { useTitle } from '../../lib/useTitle.ts';
import { FlashMessageRender } from '../../app/FlashMessageRender.tsx';
import { CommandInput } from './CommandInput.tsx';
import { FeaturePanels } from './FeaturePanels.tsx';
import { Graphs } from './Graphs.tsx';
import { HeaderCard } from './HeaderCard.tsx';
import { PowerButtons } from './PowerButtons.tsx';
import { Terminal } from './Terminal.tsx';
import { useServerStore } from './store.ts';
import { installFailed } from './installFailed.ts';
import { THROTTLED_FLASH_KEY } from './throttledNotice.ts';

/** The console tab (spec 001 §2 "Console"). */
export function ConsolePage() {
  const { t } = useTranslation('server');
  const server = useServerStore((s) => s.server)!;
  const socket = useServerStore((s) => s.socket);
  const connected = useServerStore((s) => s.connected);
  const socketError = useServerStore((s) => s.socketError);
  const fatal = useServerStore((s) => s.socketFatal);
  const permissions = useServerStore((s) => s.permissions);
  const rootAdmin = useGlobalStore((s) => s.user?.rootAdmin ?? false);
  useTitle(`${server.name} | ${t('console')}`);

  return (
    <div className="space-y-4">
      {installFailed(server.status) ? (
        <MessageBox type="error">
          {t('banner.install_failed')}{' '}
          {rootAdmin && (
            <Link
              to={`/admin/servers/view/${server.internalId}`}
              className="focus-ring rounded font-medium underline underline-offset-2"
            >
              {t('banner.install_failed_link')}
            </Link>
          )}
        </MessageBox>
      ) : server.isInstalling ? (
        <MessageBox type="warning">{t('banner.installing')}</MessageBox>
      ) : server.isTransferring ? (
        <MessageBox type="warning">{t('banner.transferring')}</MessageBox>
      ) : null}
      {fatal ? (
        <MessageBox type="error">{fatal}</MessageBox>
      ) : (
        socketError && <MessageBox type="error">{t('banner.socket')}</MessageBox>
      )}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="order-2 min-w-0 lg:order-1 lg:col-span-2">
          <Terminal socket={socket} />
          <CommandInput socket={socket} disabled={!connected} allowed={can(permissions, 'control.console')} />
          <FlashMessageRender byKey={THROTTLED_FLASH_KEY} className="mt-2" />
        </div>
        <div className="order-1 space-y-4 lg:order-2">
          <HeaderCard />
          <PowerButtons />
        </div>
      </div>
      <FeaturePanels />
      <Graphs />
    </div>
  );
}
