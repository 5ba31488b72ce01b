import type { ApiKey, User } from '../../db/types.ts';
import { errors, ValidationFailed } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { randomAlnum, safeEqual, sha256Hex } from '../../lib/crypto.ts';
import { isValidAllowEntry } from '../../lib/ip.ts';
import { nowIso } from '../../lib/time.ts';
import type { ApiKeysRepository } from './api-keys.repository.ts';

export const KEY_TYPE = { client: 1, application: 2 } as const;
export type KeyType = (typeof KEY_TYPE)[keyof typeof KEY_TYPE];
const PREFIX: Record<KeyType, string> = { 1: 'ptlc_', 2: 'ptla_' };
export const MAX_CLIENT_KEYS = 25;

/** Application key permission columns (bit 1 read, bit 2 write). */
export const APPLICATION_RESOURCES = [
  'r_servers',
  'r_nodes',
  'r_allocations',
  'r_users',
  'r_locations',
  'r_nests',
  'r_eggs',
  'r_database_hosts',
  'r_server_databases',
] as const;

/** The fields every key has (the application route checks them together with its permissions). */
export const KEY_RULES = {
  description: 'required|string|max:500',
  allowed_ips: 'nullable|array|max:50',
  'allowed_ips.*': 'string',
};

export interface CreatedKey {
  key: ApiKey;
  secret: string;
}

/**
 * API keys: `identifier` (prefix + random, 16 chars) + `secret` (32 chars). Only a SHA-256 of the
 * secret is stored; secrets are 190 bits of randomness, so a slow hash would add cost without
 * adding safety, and every API request verifies one.
 */
export class ApiKeysService {
  /** last_used_at is written at most this often per key, so reads stay reads. */
  private static readonly TOUCH_INTERVAL_MS = 60_000;
  /**
   * A key and its owner are re-read from the database at most once a second per panel instance: an
   * integration calling in a loop costs one query a second, and a key deleted on another instance
   * stops working within that second (on this instance, at once).
   */
  private static readonly CACHE_MS = 1_000;
  private readonly cache = new Map<string, { found: { key: ApiKey; owner: User } | undefined; at: number }>();

  constructor(private readonly keys: ApiKeysRepository) {}

  async create(
    user: User,
    keyType: KeyType,
    input: { description?: unknown; allowed_ips?: unknown },
    permissions: Partial<Record<(typeof APPLICATION_RESOURCES)[number], number>> = {},
  ): Promise<CreatedKey> {
    const body = check<{ description: string; allowed_ips: string[] | null }>(input, KEY_RULES);
    const ips = body.allowed_ips ?? [];
    // Every bad entry is reported, each under its own index, so a client can mark them all at once.
    const invalid = ips.flatMap((ip, i) =>
      isValidAllowEntry(ip)
        ? []
        : [
            {
              field: `allowed_ips.${i}`,
              rule: '',
              detail: `"${ip}" is not a valid IP address or CIDR range.`,
            },
          ],
    );
    if (invalid.length > 0) throw new ValidationFailed(invalid);
    if (keyType === KEY_TYPE.client && (await this.keys.countForUser(user.id, keyType)) >= MAX_CLIENT_KEYS) {
      throw errors.display('You have reached the account limit for number of API keys.');
    }
    const secret = randomAlnum(32);
    const now = nowIso();
    const key = await this.keys.insert({
      user_id: user.id,
      key_type: keyType,
      identifier: PREFIX[keyType] + randomAlnum(11),
      token_hash: sha256Hex(secret),
      memo: body.description,
      allowed_ips: JSON.stringify(ips),
      r_servers: permissions.r_servers ?? 0,
      r_nodes: permissions.r_nodes ?? 0,
      r_allocations: permissions.r_allocations ?? 0,
      r_users: permissions.r_users ?? 0,
      r_locations: permissions.r_locations ?? 0,
      r_nests: permissions.r_nests ?? 0,
      r_eggs: permissions.r_eggs ?? 0,
      r_database_hosts: permissions.r_database_hosts ?? 0,
      r_server_databases: permissions.r_server_databases ?? 0,
      last_used_at: null,
      expires_at: null,
      created_at: now,
      updated_at: now,
    });
    return { key, secret };
  }

  list(user: User, keyType: KeyType): Promise<ApiKey[]> {
    return this.keys.listForUser(user.id, keyType);
  }

  async delete(user: User, identifier: string, keyType: KeyType): Promise<boolean> {
    this.cache.delete(identifier);
    return this.keys.deleteForUser(user.id, identifier, keyType);
  }

  /** Forgets cached keys, e.g. after a user's account changed. */
  forgetCached(): void {
    this.cache.clear();
  }

  private async lookup(identifier: string) {
    const now = Date.now();
    const hit = this.cache.get(identifier);
    if (hit && now - hit.at < ApiKeysService.CACHE_MS) return hit.found;
    const found = await this.keys.findWithOwner(identifier);
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(identifier, { found, at: now });
    return found;
  }

  /** Resolves a bearer token (identifier + secret) to its key and owner, or null. */
  async resolve(token: string): Promise<{ key: ApiKey; owner: User } | null> {
    if (token.length !== 48 || token.includes('|')) return null;
    return this.verify(token, await this.lookup(token.slice(0, 16)));
  }

  /**
   * `resolve` without a promise when the key is in the one-second cache and needs no write;
   * `undefined` means "ask `resolve`".
   */
  resolveCached(token: string): { key: ApiKey; owner: User } | null | undefined {
    if (token.length !== 48 || token.includes('|')) return null;
    const hit = this.cache.get(token.slice(0, 16));
    if (!hit || Date.now() - hit.at >= ApiKeysService.CACHE_MS) return undefined;
    const lastUsed = hit.found?.key.last_used_at;
    if (hit.found && (!lastUsed || Date.now() - Date.parse(lastUsed) > ApiKeysService.TOUCH_INTERVAL_MS))
      return undefined;
    return this.checkSecret(token, hit.found);
  }

  private checkSecret(token: string, found: { key: ApiKey; owner: User } | undefined) {
    if (!found) return null;
    const { key } = found;
    if (!safeEqual(sha256Hex(token.slice(16)), key.token_hash)) return null;
    if (key.expires_at && key.expires_at < nowIso()) return null;
    return found;
  }

  private async verify(token: string, found: { key: ApiKey; owner: User } | undefined) {
    if (!this.checkSecret(token, found) || !found) return null;
    const { key } = found;
    const now = Date.now();
    if (!key.last_used_at || now - Date.parse(key.last_used_at) > ApiKeysService.TOUCH_INTERVAL_MS) {
      key.last_used_at = new Date(now).toISOString();
      await this.keys.touch(key.id, key.last_used_at);
    }
    return found;
  }
}

/** The token after the last `Bearer ` in an Authorization header, cut at the first comma. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const at = header.toLowerCase().lastIndexOf('bearer ');
  if (at === -1) return null;
  const token =
    header
      .slice(at + 7)
      .split(',')[0]
      ?.trim() ?? '';
  return token === '' ? null : token;
}
