import { z } from 'zod';

/** Who must use two-factor authentication: nobody, root admins, every user. */
export const TWO_FACTOR_REQUIREMENTS = ['none', 'admins', 'everyone'] as const;
export type TwoFactorRequirement = (typeof TWO_FACTOR_REQUIREMENTS)[number];

export const MAIL_ENCRYPTIONS = ['tls', 'ssl', 'none'] as const;
export type MailEncryption = (typeof MAIL_ENCRYPTIONS)[number];

/**
 * The panel settings an admin edits on the Settings screen (`GET/PATCH /api/application/settings`).
 * Secrets are never sent back: only whether one is stored (`secret_key_set`, `password_set`).
 */
export const panelSettingsSchema = z.object({
  app_name: z.string(),
  two_factor: z.enum(TWO_FACTOR_REQUIREMENTS),
  recaptcha: z.object({ enabled: z.boolean(), site_key: z.string(), secret_key_set: z.boolean() }),
  mail: z.object({
    host: z.string().nullable(),
    port: z.number().int(),
    encryption: z.enum(MAIL_ENCRYPTIONS),
    username: z.string().nullable(),
    password_set: z.boolean(),
    from_address: z.string(),
    from_name: z.string().nullable(),
  }),
  client_allocations: z.object({
    enabled: z.boolean(),
    range_start: z.number().int().nullable(),
    range_end: z.number().int().nullable(),
  }),
  /** Gravatar pictures instead of initials (the browser then asks gravatar.com); off by default. */
  avatars: z.object({ remote: z.boolean() }),
});
export type PanelSettings = z.infer<typeof panelSettingsSchema>;

/**
 * Every field of the settings by its dotted name, the names `meta.environment` and validation
 * errors use. The write-only secrets are listed too (`mail.password` set by MAIL_PASSWORD).
 */
export const PANEL_SETTING_FIELDS = [
  'app_name',
  'two_factor',
  'recaptcha.enabled',
  'recaptcha.site_key',
  'recaptcha.secret_key',
  'mail.host',
  'mail.port',
  'mail.encryption',
  'mail.username',
  'mail.password',
  'mail.from_address',
  'mail.from_name',
  'client_allocations.enabled',
  'client_allocations.range_start',
  'client_allocations.range_end',
  'avatars.remote',
] as const;
export type PanelSettingField = (typeof PANEL_SETTING_FIELDS)[number];

/** The GET/PATCH answer: the settings and the fields an environment variable fixes (read-only). */
export const panelSettingsResponseSchema = z.object({
  object: z.literal('settings'),
  attributes: panelSettingsSchema,
  meta: z.object({ environment: z.array(z.enum(PANEL_SETTING_FIELDS)) }),
});
export type PanelSettingsResponse = z.infer<typeof panelSettingsResponseSchema>;

/**
 * The PATCH body: any subset. `recaptcha.secret_key` and `mail.password` are write-only; an empty
 * or null password keeps the stored one unless `mail.password_clear` is true.
 */
export interface PanelSettingsPatch {
  app_name?: string;
  two_factor?: TwoFactorRequirement;
  recaptcha?: { enabled?: boolean; site_key?: string | null; secret_key?: string | null };
  mail?: {
    host?: string | null;
    port?: number;
    encryption?: MailEncryption;
    username?: string | null;
    password?: string | null;
    password_clear?: boolean;
    from_address?: string;
    from_name?: string | null;
  };
  client_allocations?: { enabled?: boolean; range_start?: number | null; range_end?: number | null };
  avatars?: { remote?: boolean };
}

/** `POST /api/application/settings/mail/test`: the SMTP server's final answer to the test mail. */
export const mailTestResponseSchema = z.object({
  object: z.literal('mail_test'),
  attributes: z.object({ ok: z.literal(true), response: z.string() }),
});
export type MailTestResponse = z.infer<typeof mailTestResponseSchema>;
