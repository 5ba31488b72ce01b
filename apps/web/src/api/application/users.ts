import type { AdminUser as WireAdminUser } from '@talon/shared/admin/user-wire';
import { getItem, getPage, type ListQuery, type Page } from './http.ts';

/** Application `user` (reference §5.1), wire shape in packages/shared. */
export type { WireAdminUser };

export interface AdminUser {
  id: number;
  externalId: string | null;
  uuid: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  language: string;
  rootAdmin: boolean;
  twoFactor: boolean;
  createdAt: string;
  updatedAt: string | null;
}

export function toAdminUser(wire: WireAdminUser): AdminUser {
  return {
    id: wire.id,
    externalId: wire.external_id,
    uuid: wire.uuid,
    username: wire.username,
    email: wire.email,
    firstName: wire.first_name,
    lastName: wire.last_name,
    language: wire.language,
    rootAdmin: wire.root_admin,
    twoFactor: wire['2fa'],
    createdAt: wire.created_at,
    updatedAt: wire.updated_at,
  };
}

/** Sorts: username, email, created_at (extension), id, uuid (reference). */
export function listUsers(query: ListQuery = {}): Promise<Page<AdminUser>> {
  return getPage('/users', query, toAdminUser);
}

export function getUser(id: number | string): Promise<AdminUser> {
  return getItem(`/users/${encodeURIComponent(String(id))}`, toAdminUser);
}
