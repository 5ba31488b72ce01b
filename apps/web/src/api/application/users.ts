import type { AdminUser as WireAdminUser } from '@talon/shared/admin/user-wire';
import {
  deleteItem,
  getItem,
  getPage,
  itemPath,
  relationCount,
  sendItem,
  type ListQuery,
  type Page,
  type WireRelationships,
} from './http.ts';

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
  /** How many servers the user owns; null unless asked with include=servers. */
  serverCount: number | null;
}

export function toAdminUser(wire: WireAdminUser & WireRelationships): AdminUser {
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
    serverCount: relationCount(wire, 'servers'),
  };
}

/** Sorts: username, email, created_at (extension), id, uuid (reference). */
export function listUsers(query: ListQuery = {}): Promise<Page<AdminUser>> {
  return getPage('/users', query, toAdminUser);
}

export function getUser(id: number | string): Promise<AdminUser> {
  return getItem(itemPath('/users', id), toAdminUser);
}

/** What the create and edit forms send (reference §5.2); no password on edit keeps the stored one. */
export interface UserInput {
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  /** Empty: on create the user gets an email with a link to set one; on edit the password is kept. */
  password: string;
  language: string;
  rootAdmin: boolean;
}

function toBody(input: UserInput) {
  return {
    email: input.email,
    username: input.username,
    first_name: input.firstName,
    last_name: input.lastName,
    language: input.language,
    root_admin: input.rootAdmin,
    ...(input.password ? { password: input.password } : {}),
  };
}

export function createUser(input: UserInput): Promise<AdminUser> {
  return sendItem('POST', '/users', toBody(input), toAdminUser);
}

/** PATCH replaces the whole record (the reference's rule), so every field is sent. */
export function updateUser(id: number, input: UserInput): Promise<AdminUser> {
  return sendItem('PATCH', `/users/${id}`, toBody(input), toAdminUser);
}

/** Refused (400) while the user owns servers, with the API's words. */
export function deleteUser(id: number): Promise<void> {
  return deleteItem(`/users/${id}`);
}

/** Extension: turns the user's two-factor off and deletes their recovery codes. */
export function disableUserTwoFactor(id: number): Promise<void> {
  return deleteItem(`/users/${id}/two-factor`);
}
