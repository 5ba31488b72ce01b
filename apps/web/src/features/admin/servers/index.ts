import type { RouteObject } from 'react-router';
import { ServersListPage } from './ServersListPage.tsx';
import { ServerViewLayout } from './ServerViewLayout.tsx';
import { NewServerPage } from './create/NewServerPage.tsx';
import {
  ServerAboutTab,
  ServerBuildTab,
  ServerDatabasesTab,
  ServerDetailsTab,
  ServerManageTab,
  ServerStartupTab,
} from './ServerTabs.tsx';

/**
 * /admin/servers/* (this area's author owns this file). The WHMCS module and the server area link
 * to /admin/servers/view/<id>.
 */
/** One server's view and its tabs (the view tests mount this same route). */
export const serverViewRoute: RouteObject = {
  path: 'view/:id',
  Component: ServerViewLayout,
  children: [
    { index: true, Component: ServerAboutTab },
    { path: 'details', Component: ServerDetailsTab },
    { path: 'build', Component: ServerBuildTab },
    { path: 'startup', Component: ServerStartupTab },
    { path: 'databases', Component: ServerDatabasesTab },
    { path: 'manage', Component: ServerManageTab },
  ],
};

export const serversRoutes: RouteObject[] = [
  { index: true, Component: ServersListPage },
  { path: 'new', Component: NewServerPage },
  serverViewRoute,
];

export { ServersListPage, ServerViewLayout };
