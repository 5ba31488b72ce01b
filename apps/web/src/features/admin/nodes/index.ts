import type { RouteObject } from 'react-router';
import { NodesListPage } from './NodesListPage.tsx';
import {
  NewNodePage,
  NodeAboutTab,
  NodeAllocationsTab,
  NodeConfigurationTab,
  NodeSettingsTab,
  NodeViewLayout,
} from './NodePages.tsx';

/** /admin/nodes/* (this area's author owns this file). */
export const nodesRoutes: RouteObject[] = [
  { index: true, Component: NodesListPage },
  { path: 'new', Component: NewNodePage },
  {
    path: 'view/:id',
    Component: NodeViewLayout,
    children: [
      { index: true, Component: NodeAboutTab },
      { path: 'settings', Component: NodeSettingsTab },
      { path: 'configuration', Component: NodeConfigurationTab },
      { path: 'allocations', Component: NodeAllocationsTab },
    ],
  },
];

export { NodesListPage };
export { NodeHealthBadge, useNodeHealth } from './NodeHealthBadge.tsx';
