import type { MailEncryption, PanelSettingField, TwoFactorRequirement } from '@talon/shared';
import type { Config } from '../../config/config.ts';

/** Every panel setting by its dotted wire name, with the type its value has. */
export interface SettingValues {
  app_name: string;
  two_factor: TwoFactorRequirement;
  'recaptcha.enabled': boolean;
  'recaptcha.site_key': string;
  'recaptcha.secret_key': string;
  'mail.host': string | null;
  'mail.port': number;
  'mail.encryption': MailEncryption;
  'mail.username': string | null;
  'mail.password': string | null;
  'mail.from_address': string;
  /** null: the site name */
  'mail.from_name': string | null;
  'client_allocations.enabled': boolean;
  'client_allocations.range_start': number | null;
  'client_allocations.range_end': number | null;
  'avatars.remote': boolean;
}

interface FieldSpec<K extends PanelSettingField> {
  /** the environment variable that, when set, fixes the field */
  env: string;
  /** the value when neither the environment nor the database sets it (config.ts's default) */
  fallback: (config: Config) => SettingValues[K];
  /** encrypted at rest with the app key; never sent back */
  secret?: true;
}

const TWO_FACTOR_NAMES = ['none', 'admins', 'everyone'] as const;

/** APP_2FA_REQUIRED and the stored `auth:2fa_required` count 0, 1, 2. */
export const twoFactorLevel = (name: TwoFactorRequirement): 0 | 1 | 2 =>
  TWO_FACTOR_NAMES.indexOf(name) as 0 | 1 | 2;

/**
 * The one table of the settings: where each comes from. With the variable set, config.ts's parsed
 * value is the setting; unset, config.ts holds the default, which a stored value overrides.
 */
export const FIELDS: { [K in PanelSettingField]: FieldSpec<K> } = {
  app_name: { env: 'APP_NAME', fallback: (c) => c.appName },
  two_factor: { env: 'APP_2FA_REQUIRED', fallback: (c) => TWO_FACTOR_NAMES[c.twoFactorRequired ?? 0] },
  'recaptcha.enabled': { env: 'RECAPTCHA_ENABLED', fallback: (c) => c.recaptcha.enabled },
  'recaptcha.site_key': { env: 'RECAPTCHA_SITE_KEY', fallback: (c) => c.recaptcha.siteKey },
  'recaptcha.secret_key': {
    env: 'RECAPTCHA_SECRET_KEY',
    fallback: (c) => c.recaptcha.secretKey,
    secret: true,
  },
  'mail.host': { env: 'MAIL_HOST', fallback: (c) => c.mail.host ?? null },
  'mail.port': { env: 'MAIL_PORT', fallback: (c) => c.mail.port },
  'mail.encryption': { env: 'MAIL_ENCRYPTION', fallback: (c) => c.mail.encryption },
  'mail.username': { env: 'MAIL_USERNAME', fallback: (c) => c.mail.username ?? null },
  'mail.password': { env: 'MAIL_PASSWORD', fallback: (c) => c.mail.password ?? null, secret: true },
  'mail.from_address': { env: 'MAIL_FROM_ADDRESS', fallback: (c) => c.mail.from.address },
  // config.ts fills the sender name with APP_NAME; here unset means "the site name in effect".
  'mail.from_name': {
    env: 'MAIL_FROM_NAME',
    fallback: (c) => (c.fromEnvironment.has('MAIL_FROM_NAME') ? c.mail.from.name : null),
  },
  'client_allocations.enabled': {
    env: 'PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED',
    fallback: (c) => c.clientAllocations.enabled,
  },
  'client_allocations.range_start': {
    env: 'PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START',
    fallback: (c) => c.clientAllocations.range?.[0] ?? null,
  },
  'client_allocations.range_end': {
    env: 'PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END',
    fallback: (c) => c.clientAllocations.range?.[1] ?? null,
  },
  'avatars.remote': { env: 'REMOTE_AVATARS', fallback: (c) => c.remoteAvatars },
};

export const FIELD_NAMES = Object.keys(FIELDS) as PanelSettingField[];

/**
 * The database key of a field. The two-factor requirement keeps the key (and its 0/1/2 value) it
 * had before the Settings screen existed.
 */
export const storageKey = (field: PanelSettingField): string =>
  field === 'two_factor' ? 'auth:2fa_required' : `settings:${field}`;

/** Fields an environment variable fixes, in table order. */
export const environmentFields = (config: Config): PanelSettingField[] =>
  FIELD_NAMES.filter((f) => config.fromEnvironment.has(FIELDS[f].env));
