import { useTranslation } from 'react-i18next';
import { getServerActivity } from '../../../api/activity.ts';
import { useTitle } from '../../../lib/useTitle.ts';
import { useServerStore } from '../store.ts';
import { ActivityLog } from './ActivityLog.tsx';

/** Flash key of the server's Activity screen. */
export const SERVER_ACTIVITY_FLASH = 'server:activity';

/** /server/{id}/activity (activity.read): who did what on this server. */
export function ServerActivityPage() {
  const { t } = useTranslation('activity');
  const serverId = useServerStore((s) => s.server!.id);
  const serverName = useServerStore((s) => s.server!.name);
  useTitle(`${serverName} | ${t('server_title')}`);
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold text-zinc-100">{t('server_title')}</h1>
      <ActivityLog
        queryKey={['server', serverId, 'activity']}
        load={(query) => getServerActivity(serverId, query)}
        flashKey={SERVER_ACTIVITY_FLASH}
      />
    </div>
  );
}
