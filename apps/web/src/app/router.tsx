import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { CenteredSpinner } from '../components/Spinner.tsx';
import { loadChunk } from '../lib/chunk.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { RouteError } from './RouteError.tsx';
import { Root } from './Root.tsx';

/** Lazily loads one export of an area module; each area is one chunk (spec §8 for failures). */
function area<M>(loader: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await loadChunk(loader)) });
}

const auth = () => import('../features/auth/index.ts');
const account = () => import('../features/account/index.ts');
const dashboard = () => import('../features/dashboard/index.ts');
const shell = () => import('./shell.ts');
const server = () => import('../features/server/index.ts');
// Through the shell chunk: see loadAdminArea.
const admin = async () => (await shell()).loadAdminArea();

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <CenteredSpinner />,
    children: [
      {
        path: '/auth',
        element: <AuthLayout />,
        errorElement: <RouteError />,
        children: [
          { path: 'login', lazy: area(auth, (m) => m.LoginPage) },
          { path: 'login/checkpoint', lazy: area(auth, (m) => m.CheckpointPage) },
          { path: 'password', lazy: area(auth, (m) => m.ForgotPasswordPage) },
          { path: 'password/reset/:token', lazy: area(auth, (m) => m.ResetPasswordPage) },
          { path: '*', lazy: area(auth, (m) => m.AuthNotFound) },
        ],
      },
      {
        path: '/',
        lazy: area(shell, (m) => m.SignedInLayout),
        errorElement: <RouteError />,
        children: [
          { index: true, lazy: area(dashboard, (m) => m.DashboardPage) },
          {
            path: 'account',
            lazy: area(account, (m) => m.AccountLayout),
            children: [
              { index: true, lazy: area(account, (m) => m.AccountOverviewPage) },
              { path: 'api', lazy: area(account, (m) => m.AccountApiPage) },
              { path: 'ssh', lazy: area(account, (m) => m.AccountSshPage) },
              { path: 'activity', lazy: area(account, (m) => m.AccountActivityPage) },
              { path: '*', lazy: area(shell, (m) => m.SignedInNotFound) },
            ],
          },
          { path: 'server/:id/*', lazy: area(server, (m) => m.ServerArea) },
          { path: 'admin/*', lazy: area(admin, (m) => m.AdminArea) },
          { path: '*', lazy: area(shell, (m) => m.SignedInNotFound) },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
