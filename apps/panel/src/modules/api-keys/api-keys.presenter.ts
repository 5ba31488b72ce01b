import type { ClientApiKey } from '@talon/shared';
import type { ApiKey } from '../../db/types.ts';
import { atom } from '../../lib/time.ts';

/** The `api_key` schema: never the secret or its hash. */
export function apiKeyAttributes(k: ApiKey): ClientApiKey {
  return {
    identifier: k.identifier,
    description: k.memo,
    allowed_ips: JSON.parse(k.allowed_ips) as string[],
    last_used_at: atom(k.last_used_at),
    created_at: atom(k.created_at),
  };
}
