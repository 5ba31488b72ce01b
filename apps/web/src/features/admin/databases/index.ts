import type { RouteObject } from 'react-router';
import { DatabaseHostsListPage } from './DatabaseHostsListPage.tsx';
import { DatabaseHostViewPage, NewDatabaseHostPage } from './DatabaseHostPages.tsx';

/** /admin/databases/* (this area's author owns this file). */
export const databasesRoutes: RouteObject[] = [
  { index: true, Component: DatabaseHostsListPage },
  { path: 'new', Component: NewDatabaseHostPage },
  { path: 'view/:id', Component: DatabaseHostViewPage },
];

export { DatabaseHostsListPage, NewDatabaseHostPage, DatabaseHostViewPage };
