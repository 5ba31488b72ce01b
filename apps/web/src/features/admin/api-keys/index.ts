import type { RouteObject } from 'react-router';
import { ApiKeysPage } from './ApiKeysPage.tsx';

export const apiKeysRoutes: RouteObject[] = [{ index: true, Component: ApiKeysPage }];
export { ApiKeysPage };
