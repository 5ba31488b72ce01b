// The server view's tabs (/admin/servers/view/:id/*) live in ./view/, one file each; the route
// table (index.ts) imports them from here.
export { ServerAboutTab } from './view/AboutTab.tsx';
export { ServerDetailsTab } from './view/DetailsTab.tsx';
export { ServerBuildTab } from './view/BuildTab.tsx';
export { ServerStartupTab } from './view/StartupTab.tsx';
export { ServerDatabasesTab } from './view/DatabasesTab.tsx';
export { ServerManageTab } from './view/ManageTab.tsx';
