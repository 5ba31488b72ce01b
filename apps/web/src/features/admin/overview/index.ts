import type { RouteObject } from 'react-router';
import { OverviewPage } from './OverviewPage.tsx';

export const overviewRoutes: RouteObject[] = [{ index: true, Component: OverviewPage }];
export { OverviewPage };
