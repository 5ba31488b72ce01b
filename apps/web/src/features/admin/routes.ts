import type { RouteObject } from 'react-router';
import { SignedInNotFound } from '../../app/SignedInNotFound.tsx';
import { apiKeysRoutes } from './api-keys/index.ts';
import { databasesRoutes } from './databases/index.ts';
import { locationsRoutes } from './locations/index.ts';
import { nestsRoutes } from './nests/index.ts';
import { nodesRoutes } from './nodes/index.ts';
import { overviewRoutes } from './overview/index.ts';
import { serversRoutes } from './servers/index.ts';
import { settingsRoutes } from './settings/index.ts';
import { usersRoutes } from './users/index.ts';

/**
 * The admin area's addresses below /admin. Each area's module owns its own route list (its
 * index.ts); this table only mounts them. Unknown addresses get the signed-in 404 page.
 */
export const adminRoutes: RouteObject[] = [
  ...overviewRoutes,
  { path: 'settings', children: settingsRoutes },
  { path: 'api', children: apiKeysRoutes },
  { path: 'users', children: usersRoutes },
  { path: 'servers', children: serversRoutes },
  { path: 'nodes', children: nodesRoutes },
  { path: 'locations', children: locationsRoutes },
  { path: 'nests', children: nestsRoutes },
  { path: 'databases', children: databasesRoutes },
  { path: '*', Component: SignedInNotFound },
];
