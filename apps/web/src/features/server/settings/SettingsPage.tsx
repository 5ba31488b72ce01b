import { useTranslation } from 'react-i18next';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { can } from '../../../lib/shared.ts';
import { useTitle } from '../../../lib/useTitle.ts';
import { useServerStore } from '../store.ts';
import { DebugInformation } from './DebugInformation.tsx';
import { SETTINGS_FLASH } from './flash.ts';
import { ReinstallServer } from './ReinstallServer.tsx';
import { RenameServerForm } from './RenameServerForm.tsx';
import { SftpDetails } from './SftpDetails.tsx';

/** /server/{id}/settings (spec 001 §2 "Settings"): each box shows only with its permission. */
export function SettingsPage() {
  const { t } = useTranslation('server');
  const server = useServerStore((s) => s.server)!;
  const permissions = useServerStore((s) => s.permissions);
  useTitle(`${server.name} | ${t('settings.title')}`);

  return (
    <div className="space-y-4">
      <FlashMessageRender byKey={SETTINGS_FLASH} />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <div className="space-y-4">
          {can(permissions, 'file.sftp') && <SftpDetails />}
          {can(permissions, 'settings.rename') && (
            <ContentBox title={t('settings.rename_title')}>
              <RenameServerForm />
            </ContentBox>
          )}
        </div>
        <div className="space-y-4">
          <DebugInformation />
          {can(permissions, 'settings.reinstall') && <ReinstallServer />}
        </div>
      </div>
    </div>
  );
}
