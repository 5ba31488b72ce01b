import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getInstallLog } from '../../../../api/application/installLog.ts';
import { reinstallServer, type AdminServer } from '../../../../api/application/servers.ts';
import { httpErrorToHuman } from '../../../../api/errors.ts';
import { ContentBox } from '../../../../components/ContentBox.tsx';
import { MessageBox } from '../../../../components/MessageBox.tsx';
import { Spinner } from '../../../../components/Spinner.tsx';
import { ConfirmAction } from '../../components/index.ts';
import { OutcomeMessage, refreshServers, useOutcome } from './outcome.tsx';

/** While an install runs, the view reads the server and its log again this often. */
const INSTALLING_POLL_MS = 2000;

/**
 * The last install's log (header, environment, output) as the node kept it, and Reinstall beside
 * it: the admin fixes the cause and tries again from where the failure shows (issue 24).
 */
export function InstallLogBox({ server }: { server: AdminServer }) {
  const { t } = useTranslation(['server', 'admin']);
  const client = useQueryClient();
  const { outcome, succeeded, clear } = useOutcome();
  const installing = server.status === 'installing';
  const failed = server.status === 'install_failed' || server.status === 'reinstall_failed';
  const log = useQuery({
    // Under the servers key: a reinstall's refreshServers() reads the log again too.
    queryKey: ['admin', 'servers', String(server.id), 'install-log'],
    queryFn: () => getInstallLog(server.id),
  });

  // Nothing tells the admin view that an install ended: read the server (and so its log) again.
  useEffect(() => {
    if (!installing) return;
    const timer = setInterval(() => void refreshServers(client), INSTALLING_POLL_MS);
    return () => clearInterval(timer);
  }, [installing, client]);

  // The end of the log is where an install fails: show it first.
  const pre = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (pre.current) pre.current.scrollTop = pre.current.scrollHeight;
  }, [log.data]);

  return (
    <ContentBox title={t('install_log.title')}>
      <div className="space-y-3">
        <OutcomeMessage outcome={outcome} />
        {failed && <MessageBox type="error">{t('install_log.failed')}</MessageBox>}
        {installing && <p className="text-sm text-zinc-300">{t('install_log.installing')}</p>}
        {log.isLoading ? (
          <Spinner size="small" />
        ) : log.isError ? (
          <MessageBox type="error">{httpErrorToHuman(log.error)}</MessageBox>
        ) : log.data === null || log.data === undefined ? (
          <p className="text-sm text-zinc-400">{t('install_log.none')}</p>
        ) : (
          <pre
            ref={pre}
            data-testid="install-log"
            tabIndex={0}
            aria-label={t('install_log.label', { name: server.name })}
            className="focus-ring max-h-96 overflow-auto rounded bg-zinc-950 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap break-all text-zinc-200"
          >
            {log.data}
          </pre>
        )}
        <div className="flex flex-wrap gap-3">
          <ConfirmAction
            label={t('admin:server_view.manage.reinstall')}
            title={t('admin:server_view.manage.reinstall_confirm_title', { name: server.name })}
            message={t('admin:server_view.manage.reinstall_confirm')}
            confirmLabel={t('admin:server_view.manage.reinstall_confirm_button')}
            disabled={installing}
            onConfirm={async () => {
              clear();
              await reinstallServer(server.id);
              await refreshServers(client);
              succeeded(t('admin:server_view.manage.reinstalled'));
            }}
          />
        </div>
      </div>
    </ContentBox>
  );
}
