import type { RouteObject } from 'react-router';
import { LocationsListPage } from './LocationsListPage.tsx';

/** /admin/locations/* (this area's author owns this file). */
export const locationsRoutes: RouteObject[] = [{ index: true, Component: LocationsListPage }];

export { LocationsListPage };
