import { useTranslation } from 'react-i18next';
import { useGlobalStore } from '../../../app/store.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { CopyOnClick } from '../../../components/CopyOnClick.tsx';
import { useServerStore } from '../store.ts';

/** The address an SFTP client connects to; IPv6 hosts need brackets before the port. */
export function sftpAddress(ip: string, port: number): string {
  return `sftp://${ip.includes(':') ? `[${ip}]` : ip}:${port}`;
}

/** SFTP Details (spec 001 §2): address, `{panel username}.{server id}`, password note, launcher. */
export function SftpDetails() {
  const { t } = useTranslation('server');
  const server = useServerStore((s) => s.server)!;
  const username = useGlobalStore((s) => s.user?.username ?? '');
  const address = sftpAddress(server.sftp.ip, server.sftp.port);
  const login = `${username}.${server.id}`;
  const launch = address.replace('sftp://', `sftp://${encodeURIComponent(login)}@`);

  return (
    <ContentBox title={t('settings.sftp_title')}>
      <dl className="space-y-4 text-sm">
        <div>
          <dt className="text-xs font-semibold tracking-wide text-zinc-400 uppercase">
            {t('settings.sftp_address')}
          </dt>
          <dd className="mt-1 font-mono text-zinc-100">
            <CopyOnClick text={address}>
              <span data-testid="sftp-address">{address}</span>
            </CopyOnClick>
          </dd>
        </div>
        <div>
          <dt className="text-xs font-semibold tracking-wide text-zinc-400 uppercase">
            {t('settings.sftp_username')}
          </dt>
          <dd className="mt-1 font-mono text-zinc-100">
            <CopyOnClick text={login}>
              <span data-testid="sftp-username">{login}</span>
            </CopyOnClick>
          </dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-zinc-400">{t('settings.sftp_password_note')}</p>
        <a
          href={launch}
          className="focus-ring inline-flex shrink-0 items-center justify-center rounded-md bg-zinc-700 px-4 py-2 text-sm font-medium text-zinc-100 hover:bg-zinc-600"
        >
          {t('settings.sftp_launch')}
        </a>
      </div>
    </ContentBox>
  );
}
