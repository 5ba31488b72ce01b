import { useCallback, useEffect } from 'react';
import { NavLink, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getServer } from '../../api/servers.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { useGlobalStore } from '../../app/store.ts';
import { CenteredSpinner } from '../../components/Spinner.tsx';
import { NotFoundScreen, ScreenBlock } from '../../components/ScreenBlock.tsx';
import { can } from '../../lib/shared.ts';
import { useTitle } from '../../lib/useTitle.ts';
import { ConflictNotice, conflictKind } from './ConflictNotice.tsx';
import { ConsolePage } from './ConsolePage.tsx';
import { FilesPage } from './files/FilesPage.tsx';
import { DatabasesPage } from './databases/DatabasesPage.tsx';
import { SchedulesPage } from './schedules/SchedulesPage.tsx';
import { ScheduleDetailPage } from './schedules/ScheduleDetailPage.tsx';
import { EditFilePage, NewFilePage } from './files/editor/FileEditorPage.tsx';
import { SettingsPage } from './settings/SettingsPage.tsx';
import { StartupPage } from './startup/StartupPage.tsx';
import { NetworkPage } from './network/NetworkPage.tsx';
import { UsersPage } from './users/UsersPage.tsx';
import { BackupsPage } from './backups/BackupsPage.tsx';
import { useBackupEvents } from './backups/useBackupEvents.ts';
import { ServerActivityPage } from './activity/ServerActivityPage.tsx';
import { usePermissionRefresh } from './users/usePermissionRefresh.ts';
import { ServerErrorBoundary } from './ServerErrorBoundary.tsx';
import { useServerConnection } from './connection.ts';
import { gateFor } from './gating.ts';
import { isInConflict, useServerStore } from './store.ts';

/** The server area's pages, in tab order: path below /server/{id}, label key, screen. */
const TABS = [
  { path: '', label: 'console', Page: ConsolePage },
  { path: 'files', label: 'files:title', Page: FilesPage },
  { path: 'databases', label: 'databases:title', Page: DatabasesPage },
  { path: 'schedules', label: 'schedules:title', Page: SchedulesPage },
  { path: 'users', label: 'users:title', Page: UsersPage },
  { path: 'backups', label: 'backups:title', Page: BackupsPage },
  { path: 'network', label: 'network:title', Page: NetworkPage },
  { path: 'startup', label: 'startup:title', Page: StartupPage },
  { path: 'settings', label: 'settings.title', Page: SettingsPage },
  { path: 'activity', label: 'activity:server_title', Page: ServerActivityPage },
] as const;

/**
 * Pages below a tab that are not tabs themselves: matched by path prefix, gated like every path
 * (gating.ts), and shown with their tab highlighted.
 */
const SUB_PAGES = [
  { path: 'files/edit', tab: 'files', Page: EditFilePage },
  { path: 'files/new', tab: 'files', Page: NewFilePage },
  { path: 'schedules', tab: 'schedules', Page: ScheduleDetailPage },
] as const;

/** /server/{id}/*: loads the server, opens its live connection, gates and renders its pages. */
export function ServerArea() {
  // Tab labels from other namespaces (files:title) must be loaded before the tab bar renders.
  const { t } = useTranslation([
    'server',
    'files',
    'startup',
    'network',
    'users',
    'activity',
    'databases',
    'backups',
    'schedules',
  ]);
  const params = useParams();
  const id = params.id!;
  const rest = (params['*'] ?? '').replace(/\/+$/, '');
  const rootAdmin = useGlobalStore((s) => s.user?.rootAdmin ?? false);
  const query = useQuery({ queryKey: ['server', id, 'details'], queryFn: () => getServer(id), retry: false });
  const server = useServerStore((s) => s.server);
  const permissions = useServerStore((s) => s.permissions);
  const setServer = useServerStore((s) => s.setServer);
  const refetch = query.refetch;

  // Every answer replaces the store's copy, even one equal to the cached data (a reload after
  // `install completed` must clear the `installing` status the socket set meanwhile).
  const answeredAt = query.dataUpdatedAt;
  useEffect(() => {
    if (query.data) setServer(query.data.server, query.data.permissions, query.data.isOwner);
  }, [query.data, answeredAt, setServer]);

  // Leaving the server (or switching to another) empties the store and closes the socket.
  useEffect(() => () => useServerStore.getState().clear(), [id]);

  useServerConnection(
    query.data ? id : undefined,
    can(query.data?.permissions ?? [], 'websocket.connect'),
    () => void refetch(),
  );
  // Backup progress, completion and restore events, wherever the user is in the server area.
  useBackupEvents(id);
  // Permissions changed by the owner reach this page through the socket's token revocation.
  usePermissionRefresh(useCallback(() => void refetch(), [refetch]));

  const loaded = server !== null && server.id === id;
  const gate = gateFor(rest, permissions);
  const subPage = SUB_PAGES.find((sub) => rest === sub.path || rest.startsWith(`${sub.path}/`));
  const page = gate === 'allowed' ? (TABS.find((tab) => tab.path === rest) ?? subPage) : undefined;
  // A root admin on the bare root path still gets the console of a server in a conflict state.
  const conflict = loaded && isInConflict(server) && !(rootAdmin && rest === '');
  const kind = loaded ? conflictKind(server) : null;
  // Pages title themselves; notices, denials and not-found are titled here as '{server name} | {title}'.
  useTitle(
    !loaded
      ? undefined
      : conflict && kind
        ? `${server.name} | ${t(`conflict.${kind}_title`)}`
        : gate === 'denied'
          ? `${server.name} | ${t('access_denied')}`
          : !page
            ? `${server.name} | 404`
            : undefined,
  );

  if (query.isError) {
    return <ScreenBlock message={httpErrorToHuman(query.error)} />;
  }
  if (!loaded) return <CenteredSpinner />;
  const TAB =
    'focus-ring border-b-2 px-3 py-3 text-sm font-medium whitespace-nowrap text-zinc-400 hover:text-zinc-100';

  return (
    <div className="flex flex-1 flex-col">
      <div className="border-b border-zinc-800 bg-zinc-900/60">
        {/* Tabs wrap onto a second line on narrow screens rather than scroll: every page stays in
            sight (issue 11), and DOM order remains the keyboard order. */}
        <nav
          aria-label={t('tabs_label')}
          data-testid="server-tabs"
          className="mx-auto flex w-full max-w-[1200px] flex-wrap items-center gap-x-1 px-2 sm:gap-x-2 sm:px-6"
        >
          {TABS.filter((tab) => gateFor(tab.path, permissions) === 'allowed').map((tab) => (
            <NavLink
              key={tab.path}
              to={tab.path === '' ? `/server/${id}` : `/server/${id}/${tab.path}`}
              end
              className={({ isActive }) =>
                `${TAB} ${isActive || subPage?.tab === tab.path ? 'border-sky-500 text-zinc-100' : 'border-transparent'}`
              }
            >
              {t(tab.label)}
            </NavLink>
          ))}
          {rootAdmin && (
            <a
              href={`/admin/servers/view/${server.internalId}`}
              target="_blank"
              rel="noreferrer"
              className={`${TAB} ml-auto border-transparent`}
              data-testid="admin-link"
            >
              {t('admin_view')} ↗
            </a>
          )}
        </nav>
      </div>
      <div className="mx-auto w-full max-w-[1200px] px-4 py-6 sm:px-6">
        <ServerErrorBoundary key={rest} message={t('render_crash')}>
          {conflict ? (
            <ConflictNotice server={server} />
          ) : gate === 'denied' ? (
            <ScreenBlock title={t('access_denied')} message={t('access_denied_text')} />
          ) : page ? (
            <page.Page />
          ) : (
            <NotFoundScreen />
          )}
        </ServerErrorBoundary>
      </div>
    </div>
  );
}
