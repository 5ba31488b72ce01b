import { isSenderAddress } from '@talon/shared/rules';
import type { FieldErrors, Resolver } from 'react-hook-form';
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
  remoteAvatars: 'avatars.remote',
} as const;

export type SettingsField = keyof typeof FIELD_WIRE;

export function fieldForWire(wire: string): SettingsField | null {
  const entry = Object.entries(FIELD_WIRE).find(([, name]) => name === wire);
  return entry ? (entry[0] as SettingsField) : null;
}

/** What the settings form holds: text boxes as strings (ports too), switches as booleans. */
export interface SettingsFormValues {
  appName: string;
  twoFactor: 'none' | 'admins' | 'everyone';
  recaptchaEnabled: boolean;
  recaptchaSiteKey: string;
  recaptchaSecretKey: string;
  /** Not edited: whether a secret is stored, so an empty secret box is fine. */
  recaptchaSecretSet: boolean;
  mailHost: string;
  mailPort: string;
  mailEncryption: 'tls' | 'ssl' | 'none';
  mailUsername: string;
  mailPassword: string;
  mailPasswordClear: boolean;
  mailFromAddress: string;
  mailFromName: string;
  allocationsEnabled: boolean;
  allocationsStart: string;
  allocationsEnd: string;
  remoteAvatars: boolean;
}

const isPort = (v: string) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535;

/**
 * The form's rules, written out rather than as a zod schema: every zod feature the admin chunk uses
 * is also downloaded by the sign-in page (they share zod's core), whose budget is full.
 */
export function settingsProblems(v: SettingsFormValues): Partial<Record<keyof SettingsFormValues, string>> {
  const problems: Partial<Record<keyof SettingsFormValues, string>> = {};
  const long = 'At most 191 characters.';
  for (const field of [
    'appName',
    'recaptchaSiteKey',
    'recaptchaSecretKey',
    'mailHost',
    'mailUsername',
    'mailPassword',
    'mailFromName',
  ] as const) {
    if (v[field].length > 191) problems[field] = long;
  }
  if (v.appName.trim() === '') problems.appName = 'The site name is required.';
  if (!isPort(v.mailPort.trim())) problems.mailPort = 'Enter the SMTP port (1–65535; often 587, 465 or 25).';
  if (!isSenderAddress(v.mailFromAddress.trim())) {
    problems.mailFromAddress = 'Enter a valid email address.';
  }
  if (v.recaptchaEnabled && v.recaptchaSiteKey.trim() === '') {
    problems.recaptchaSiteKey = 'Enter the site key to turn reCAPTCHA on.';
  }
  if (v.recaptchaEnabled && v.recaptchaSecretKey.trim() === '' && !v.recaptchaSecretSet) {
    problems.recaptchaSecretKey = 'Enter the secret key to turn reCAPTCHA on.';
  }
  const start = v.allocationsStart.trim();
  const end = v.allocationsEnd.trim();
  if (start !== '' && !isPort(start)) problems.allocationsStart = 'Enter a port between 1 and 65535.';
  if (end !== '' && !isPort(end)) problems.allocationsEnd = 'Enter a port between 1 and 65535.';
  if (v.allocationsEnabled) {
    if (start === '') problems.allocationsStart = 'Enter a port to turn this on.';
    if (end === '') problems.allocationsEnd = 'Enter a port to turn this on.';
    if (isPort(start) && isPort(end) && Number(start) > Number(end)) {
      problems.allocationsEnd = 'The last port must not be below the first.';
    }
  }
  return problems;
}

/** react-hook-form resolver over settingsProblems; the values go on trimmed. */
export const settingsResolver: Resolver<SettingsFormValues> = (values) => {
  const problems = Object.entries(settingsProblems(values));
  if (problems.length === 0) return { values, errors: {} };
  const errors = Object.fromEntries(
    problems.map(([field, message]) => [field, { type: 'validate', message }]),
  ) as FieldErrors<SettingsFormValues>;
  return { values: {}, errors };
};

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
    remoteAvatars: s.remoteAvatars,
  };
}

const orNull = (v: string) => (v.trim() === '' ? null : v.trim());
const portOrNull = (v: string) => (v.trim() === '' ? null : Number(v.trim()));

/**
 * The PATCH body: every setting the form edits, except those an environment variable sets (the
 * panel refuses to change them) and empty secret boxes (empty means "keep the stored one").
 */
export function toPatch(v: SettingsFormValues, environment: readonly string[]): PanelSettingsPatch {
  const locked = new Set(environment);
  const values: Record<string, unknown> = {
    app_name: v.appName.trim(),
    two_factor: v.twoFactor,
    'recaptcha.enabled': v.recaptchaEnabled,
    'recaptcha.site_key': v.recaptchaSiteKey.trim(),
    'recaptcha.secret_key': v.recaptchaSecretKey.trim() === '' ? undefined : v.recaptchaSecretKey.trim(),
    'mail.host': orNull(v.mailHost),
    'mail.port': Number(v.mailPort.trim()),
    'mail.encryption': v.mailEncryption,
    'mail.username': orNull(v.mailUsername),
    'mail.password': v.mailPassword === '' ? undefined : v.mailPassword,
    'mail.password_clear': v.mailPasswordClear && v.mailPassword === '' ? true : undefined,
    'mail.from_address': v.mailFromAddress.trim(),
    'mail.from_name': orNull(v.mailFromName),
    'client_allocations.enabled': v.allocationsEnabled,
    'client_allocations.range_start': portOrNull(v.allocationsStart),
    'client_allocations.range_end': portOrNull(v.allocationsEnd),
    'avatars.remote': v.remoteAvatars,
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
