import type { RouteObject } from 'react-router';
import { SettingsPage } from './SettingsPage.tsx';

export const settingsRoutes: RouteObject[] = [{ index: true, Component: SettingsPage }];
export { SettingsPage };
