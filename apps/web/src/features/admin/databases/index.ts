import type { RouteObject } from 'react-router';
import { DatabaseHostsListPage } from './DatabaseHostsListPage.tsx';

/** /admin/databases/* (this area's author owns this file). */
export const databasesRoutes: RouteObject[] = [{ index: true, Component: DatabaseHostsListPage }];

export { DatabaseHostsListPage };
