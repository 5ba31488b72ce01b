import type { RouteObject } from 'react-router';
import { NestsListPage } from './NestsListPage.tsx';
import { EggTabComing, EggViewLayout, NestViewPage } from './NestPages.tsx';

/** /admin/nests/* (this area's author owns this file). */
export const nestsRoutes: RouteObject[] = [
  { index: true, Component: NestsListPage },
  { path: 'view/:id', Component: NestViewPage },
  {
    path: 'egg/:id',
    Component: EggViewLayout,
    children: [
      { index: true, Component: EggTabComing },
      { path: 'variables', Component: EggTabComing },
      { path: 'script', Component: EggTabComing },
    ],
  },
];

export { NestsListPage };
