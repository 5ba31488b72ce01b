import type { RouteObject } from 'react-router';
import { UsersListPage } from './UsersListPage.tsx';
import { NewUserPage, UserViewPage } from './UserPages.tsx';

/** /admin/users/* (this area's author owns this file and its routes). */
export const usersRoutes: RouteObject[] = [
  { index: true, Component: UsersListPage },
  { path: 'new', Component: NewUserPage },
  { path: 'view/:id', Component: UserViewPage },
];

export { UsersListPage, NewUserPage, UserViewPage };
