import { APP, deleteItem, listParams, requestApp, type WireItem, type WireList } from './http.ts';
import { http } from '../http.ts';

/** The resources an application key is granted rights on (the `r_*` columns). */
export const KEY_RESOURCES = [
  'users',
  'nodes',
  'allocations',
  'locations',
  'nests',
  'eggs',
  'servers',
  'database_hosts',
  'server_databases',
] as const;

export type KeyResource = (typeof KEY_RESOURCES)[number];

/** 0 none, 1 read, 3 read and write (the r_* bits). */
export type KeyRight = 0 | 1 | 3;

export type KeyPermissions = Record<KeyResource, KeyRight>;

export interface WireApplicationKey {
  identifier: string;
  description: string;
  allowed_ips: string[];
  permissions: Partial<Record<KeyResource, number>>;
  last_used_at: string | null;
  created_at: string;
}

export interface ApplicationKey {
  identifier: string;
  description: string;
  allowedIps: string[];
  permissions: KeyPermissions;
  lastUsedAt: string | null;
  createdAt: string;
}

function toRight(value: number | undefined): KeyRight {
  if (value === 3 || value === 2) return 3;
  return value === 1 ? 1 : 0;
}

export function toApplicationKey(wire: WireApplicationKey): ApplicationKey {
  const permissions = Object.fromEntries(
    KEY_RESOURCES.map((resource) => [resource, toRight(wire.permissions?.[resource])]),
  ) as KeyPermissions;
  return {
    identifier: wire.identifier,
    description: wire.description,
    allowedIps: wire.allowed_ips ?? [],
    permissions,
    lastUsedAt: wire.last_used_at,
    createdAt: wire.created_at,
  };
}

export async function listApplicationKeys(): Promise<ApplicationKey[]> {
  const { data } = await http.get<WireList<WireApplicationKey>>(`${APP}/api-keys`, {
    params: listParams({ perPage: 100 }),
  });
  return data.data.map((item) => toApplicationKey(item.attributes));
}

export interface NewApplicationKey {
  description: string;
  allowedIps: string[];
  permissions: KeyPermissions;
}

/** Creates a key; the answer carries the secret (`ptla_…`), which is never shown again. */
export async function createApplicationKey(
  input: NewApplicationKey,
): Promise<{ key: ApplicationKey; secretToken: string }> {
  const { data } = await requestApp<WireItem<WireApplicationKey> & { meta: { secret_token: string } }>(
    'POST',
    '/api-keys',
    { description: input.description, allowed_ips: input.allowedIps, permissions: input.permissions },
  );
  return { key: toApplicationKey(data.attributes), secretToken: data.meta.secret_token };
}

export function deleteApplicationKey(identifier: string): Promise<void> {
  return deleteItem(`/api-keys/${encodeURIComponent(identifier)}`);
}
