import type { RouteObject } from 'react-router';
import { EggConfigurationTab } from './EggConfigurationTab.tsx';
import { EggScriptTab } from './EggScriptTab.tsx';
import { EggVariablesTab } from './EggVariablesTab.tsx';
import { EggViewLayout } from './EggViewLayout.tsx';
import { NestsListPage } from './NestsListPage.tsx';
import { NestViewPage } from './NestViewPage.tsx';

/** /admin/nests/* (this area's author owns this file). */
export const nestsRoutes: RouteObject[] = [
  { index: true, Component: NestsListPage },
  { path: 'view/:id', Component: NestViewPage },
  {
    path: 'egg/:id',
    Component: EggViewLayout,
    children: [
      { index: true, Component: EggConfigurationTab },
      { path: 'variables', Component: EggVariablesTab },
      { path: 'script', Component: EggScriptTab },
    ],
  },
];

export { NestsListPage };
