import { z } from 'zod';
import type { PanelSettings, PanelSettingsPatch } from '../../../api/application/settings.ts';

/** Which form field edits which setting (the dotted wire names of meta.environment and 422s). */
export const FIELD_WIRE = {
  appName: 'app_name',
  twoFactor: 'two_factor',
  recaptchaEnabled: 'recaptcha.enabled',
  recaptchaSiteKey: 'recaptcha.site_key',
  recaptchaSecretKey: 'recaptcha.secret_key',
  mailHost: 'mail.host',
  mailPort: 'mail.port',
  mailEncryption: 'mail.encryption',
  mailUsername: 'mail.username',
  mailPassword: 'mail.password',
  mailFromAddress: 'mail.from_address',
  mailFromName: 'mail.from_name',
  allocationsEnabled: 'client_allocations.enabled',
  allocationsStart: 'client_allocations.range_start',
  allocationsEnd: 'client_allocations.range_end',
} as const;

export type SettingsField = keyof typeof FIELD_WIRE;

export function fieldForWire(wire: string): SettingsField | null {
  const entry = Object.entries(FIELD_WIRE).find(([, name]) => name === wire);
  return entry ? (entry[0] as SettingsField) : null;
}

/** A port number typed in a text box: '' stays empty, anything else must be a whole 1–65535. */
const optionalPort = z
  .string()
  .trim()
  .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535), {
    message: 'Enter a port between 1 and 65535.',
  });

export const settingsFormSchema = z
  .object({
    appName: z.string().trim().min(1, 'The site name is required.').max(191, 'At most 191 characters.'),
    twoFactor: z.enum(['none', 'admins', 'everyone']),
    recaptchaEnabled: z.boolean(),
    recaptchaSiteKey: z.string().trim().max(191, 'At most 191 characters.'),
    recaptchaSecretKey: z.string().trim().max(191, 'At most 191 characters.'),
    mailHost: z.string().trim().max(191, 'At most 191 characters.'),
    mailPort: optionalPort.refine((v) => v !== '', {
      message: 'Enter the SMTP port (often 587, 465 or 25).',
    }),
    mailEncryption: z.enum(['tls', 'ssl', 'none']),
    mailUsername: z.string().trim().max(191, 'At most 191 characters.'),
    mailPassword: z.string().max(191, 'At most 191 characters.'),
    mailPasswordClear: z.boolean(),
    mailFromAddress: z.string().trim().email('Enter a valid email address.'),
    mailFromName: z.string().trim().max(191, 'At most 191 characters.'),
    allocationsEnabled: z.boolean(),
    allocationsStart: optionalPort,
    allocationsEnd: optionalPort,
    /** Not edited: whether a secret is stored, to know if an empty box is fine. */
    recaptchaSecretSet: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.recaptchaEnabled && v.recaptchaSiteKey === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['recaptchaSiteKey'],
        message: 'Enter the site key to turn reCAPTCHA on.',
      });
    }
    if (v.recaptchaEnabled && v.recaptchaSecretKey === '' && !v.recaptchaSecretSet) {
      ctx.addIssue({
        code: 'custom',
        path: ['recaptchaSecretKey'],
        message: 'Enter the secret key to turn reCAPTCHA on.',
      });
    }
    if (v.allocationsEnabled) {
      for (const field of ['allocationsStart', 'allocationsEnd'] as const) {
        if (v[field] === '')
          ctx.addIssue({ code: 'custom', path: [field], message: 'Enter a port to turn this on.' });
      }
      if (
        v.allocationsStart !== '' &&
        v.allocationsEnd !== '' &&
        Number(v.allocationsStart) > Number(v.allocationsEnd)
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['allocationsEnd'],
          message: 'The last port must not be below the first.',
        });
      }
    }
  });

export type SettingsFormValues = z.infer<typeof settingsFormSchema>;

export function toFormValues(s: PanelSettings): SettingsFormValues {
  return {
    appName: s.appName,
    twoFactor: s.twoFactor,
    recaptchaEnabled: s.recaptcha.enabled,
    recaptchaSiteKey: s.recaptcha.siteKey,
    recaptchaSecretKey: '',
    recaptchaSecretSet: s.recaptcha.secretKeySet,
    mailHost: s.mail.host ?? '',
    mailPort: String(s.mail.port),
    mailEncryption: s.mail.encryption,
    mailUsername: s.mail.username ?? '',
    mailPassword: '',
    mailPasswordClear: false,
    mailFromAddress: s.mail.fromAddress,
    mailFromName: s.mail.fromName ?? '',
    allocationsEnabled: s.clientAllocations.enabled,
    allocationsStart: s.clientAllocations.rangeStart === null ? '' : String(s.clientAllocations.rangeStart),
    allocationsEnd: s.clientAllocations.rangeEnd === null ? '' : String(s.clientAllocations.rangeEnd),
  };
}

const orNull = (v: string) => (v === '' ? null : v);
const portOrNull = (v: string) => (v === '' ? null : Number(v));

/**
 * The PATCH body: every setting the form edits, except those an environment variable sets (the
 * panel refuses to change them) and empty secret boxes (empty means "keep the stored one").
 */
export function toPatch(v: SettingsFormValues, environment: readonly string[]): PanelSettingsPatch {
  const locked = new Set(environment);
  const values: Record<string, unknown> = {
    app_name: v.appName,
    two_factor: v.twoFactor,
    'recaptcha.enabled': v.recaptchaEnabled,
    'recaptcha.site_key': v.recaptchaSiteKey,
    'recaptcha.secret_key': v.recaptchaSecretKey === '' ? undefined : v.recaptchaSecretKey,
    'mail.host': orNull(v.mailHost),
    'mail.port': Number(v.mailPort),
    'mail.encryption': v.mailEncryption,
    'mail.username': orNull(v.mailUsername),
    'mail.password': v.mailPassword === '' ? undefined : v.mailPassword,
    'mail.password_clear': v.mailPasswordClear && v.mailPassword === '' ? true : undefined,
    'mail.from_address': v.mailFromAddress,
    'mail.from_name': orNull(v.mailFromName),
    'client_allocations.enabled': v.allocationsEnabled,
    'client_allocations.range_start': portOrNull(v.allocationsStart),
    'client_allocations.range_end': portOrNull(v.allocationsEnd),
  };
  if (locked.has('mail.password')) values['mail.password_clear'] = undefined;
  const patch: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || locked.has(name)) continue;
    const [group, key] = name.split('.') as [string, string | undefined];
    if (key === undefined) patch[group] = value;
    else patch[group] = { ...(patch[group] as object | undefined), [key]: value };
  }
  return patch;
}
