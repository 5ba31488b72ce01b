import type { ClientApiKey } from '@talon/shared/client/account-wire';
import { parseWireDate } from '../lib/dates.ts';

/** Account user (spec §3). */
export interface AccountUser {
  uuid: string;
  username: string;
  email: string;
  language: string;
  rootAdmin: boolean;
  useTotp: boolean;
  createdAt: Date | null;
  updatedAt: Date | null;
}

/** Site settings (spec §3). */
export interface SiteSettings {
  name: string;
  locale: string;
  recaptcha: { enabled: boolean; siteKey: string };
  analytics?: string;
  /** PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED: without it the panel refuses every new allocation. */
  clientAllocations: boolean;
  /** Gravatar pictures allowed by the admin; off, avatars are initials and nothing is fetched. */
  remoteAvatars: boolean;
}

/** API key (spec §3). */
export interface ApiKey {
  identifier: string;
  description: string;
  allowedIps: string[];
  createdAt: Date | null;
  lastUsedAt: Date | null;
}

export type WireApiKey = ClientApiKey;

export function toApiKey(wire: WireApiKey): ApiKey {
  return {
    identifier: wire.identifier,
    description: wire.description,
    allowedIps: wire.allowed_ips ?? [],
    createdAt: parseWireDate(wire.created_at),
    lastUsedAt: parseWireDate(wire.last_used_at),
  };
}

export function toAccountUser(wire: WireBootstrapUser): AccountUser {
  return {
    uuid: wire.uuid,
    username: wire.username,
    email: wire.email,
    language: wire.language,
    rootAdmin: wire.root_admin,
    useTotp: wire.use_totp,
    createdAt: parseWireDate(wire.created_at),
    updatedAt: parseWireDate(wire.updated_at),
  };
}

export function toSiteSettings(wire: WireSiteConfiguration | undefined): SiteSettings {
  return {
    name: wire?.name || 'Talon',
    locale: wire?.locale || 'en',
    recaptcha: { enabled: wire?.recaptcha?.enabled ?? false, siteKey: wire?.recaptcha?.siteKey ?? '' },
    analytics: wire?.analytics || undefined,
    clientAllocations: wire?.clientAllocations?.enabled ?? false,
    remoteAvatars: wire?.remoteAvatars ?? false,
  };
}

/** Login result (spec §3). */
export interface LoginResult {
  complete: boolean;
  intended: string | null;
  confirmationToken: string | null;
}

export interface Pagination {
  currentPage: number;
  totalPages: number;
  total: number;
}

export interface Paginated<T> {
  items: T[];
  pagination: Pagination;
}
