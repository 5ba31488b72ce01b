import type {
  ApplicationApiKey,
  ApplicationKeyPermissions,
  ApplicationKeyResource,
  ApplicationKeyRight,
} from '@talon/shared/admin/api-keys-wire';
import { APP, deleteItem, listParams, requestApp, type WireItem, type WireList } from './http.ts';
import { http } from '../http.ts';

/**
 * The resources an application key is granted rights on (the `r_*` columns), in screen order.
 * The same list as APPLICATION_KEY_RESOURCES in packages/shared, written again because importing
 * that module's value brings the classic zod API into the web bundle; the checks below fail the
 * typecheck if the two lists ever differ.
 */
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
] as const satisfies readonly ApplicationKeyResource[];
export type KeyResource = ApplicationKeyResource;
type Missing = Exclude<ApplicationKeyResource, (typeof KEY_RESOURCES)[number]>;
const everyResourceListed: [Missing] extends [never] ? true : Missing = true;
void everyResourceListed;

/** 0 none, 1 read, 3 read and write (the r_* bits). */
export type KeyRight = ApplicationKeyRight;
export type KeyPermissions = ApplicationKeyPermissions;

export interface ApplicationKey {
  identifier: string;
  description: string;
  allowedIps: string[];
  permissions: KeyPermissions;
  lastUsedAt: string | null;
  createdAt: string | null;
}

function toRight(value: number | undefined): KeyRight {
  if (value === 3 || value === 2) return 3;
  return value === 1 ? 1 : 0;
}

export function toApplicationKey(wire: ApplicationApiKey): ApplicationKey {
  const permissions = Object.fromEntries(
    KEY_RESOURCES.map((resource) => [resource, toRight(wire.permissions[resource])]),
  ) as KeyPermissions;
  return {
    identifier: wire.identifier,
    description: wire.description,
    allowedIps: wire.allowed_ips,
    permissions,
    lastUsedAt: wire.last_used_at,
    createdAt: wire.created_at,
  };
}

export async function listApplicationKeys(): Promise<ApplicationKey[]> {
  const { data } = await http.get<WireList<ApplicationApiKey>>(`${APP}/api-keys`, {
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
  const { data } = await requestApp<WireItem<ApplicationApiKey> & { meta: { secret_token: string } }>(
    'POST',
    '/api-keys',
    { description: input.description, allowed_ips: input.allowedIps, permissions: input.permissions },
  );
  return { key: toApplicationKey(data.attributes), secretToken: data.meta.secret_token };
}

export function deleteApplicationKey(identifier: string): Promise<void> {
  return deleteItem(`/api-keys/${encodeURIComponent(identifier)}`);
}
