import {
  APPLICATION_KEY_RESOURCES,
  type ApplicationApiKey,
  type ApplicationKeyResource,
  type ApplicationKeyPermissions,
  type ApplicationKeyRight,
} from '@talon/shared';
import type { ApiKey } from '../../db/types.ts';
import { apiKeyAttributes } from './api-keys.presenter.ts';

/** `users` on the wire is the key's `r_users` column. */
export const column = (resource: ApplicationKeyResource): `r_${ApplicationKeyResource}` => `r_${resource}`;

/** An application `api_key`: the client key's fields and the rights per resource; never the secret. */
export function applicationApiKeyAttributes(k: ApiKey): ApplicationApiKey {
  const permissions = Object.fromEntries(
    APPLICATION_KEY_RESOURCES.map((r) => [r, k[column(r)] as ApplicationKeyRight]),
  ) as ApplicationKeyPermissions;
  return { ...apiKeyAttributes(k), permissions };
}
