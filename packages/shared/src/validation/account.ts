import * as z from 'zod/mini';
import { requiredString } from './auth.ts';
import {
  API_KEY_DESCRIPTION_MIN,
  PASSWORD_MIN_LENGTH,
  SEARCH_MIN_LENGTH,
  TWO_FACTOR_CODE_LENGTH,
  VALIDATION_MESSAGES as M,
} from './messages.ts';

/** Object-level rule: `field` must equal `other`; reported on `field`. */
function sameAs<T extends Record<string, unknown>>(
  field: keyof T & string,
  other: keyof T & string,
  message: string,
) {
  return z.refine<T>((v) => v[field] === v[other], {
    message,
    path: [field],
    when: (payload) => typeof (payload.value as T)[other] === 'string',
  });
}

/** Update Password panel. */
export const updatePasswordSchema = z
  .object({
    current: requiredString(M.currentPasswordRequired),
    password: requiredString(M.newPasswordRequired).check(z.minLength(PASSWORD_MIN_LENGTH, M.newPasswordMin)),
    confirmPassword: z.string(),
  })
  .check(
    sameAs<{ current: string; password: string; confirmPassword: string }>(
      'confirmPassword',
      'password',
      M.passwordConfirmationMismatch,
    ),
  );
export type UpdatePasswordValues = z.infer<typeof updatePasswordSchema>;

/** Update Email Address panel. */
export const updateEmailSchema = z.object({
  email: z.pipe(requiredString(M.emailRequired, { trim: true }), z.email(M.emailInvalid)),
  password: requiredString(M.accountPasswordRequired),
});
export type UpdateEmailValues = z.infer<typeof updateEmailSchema>;

/** Two-factor setup: the 6-digit code from the authenticator app. */
export const enableTwoFactorSchema = z.object({
  code: requiredString(M.twoFactorCodeRequired).check(
    z.regex(new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`), M.twoFactorCodeDigits),
  ),
});
export type EnableTwoFactorValues = z.infer<typeof enableTwoFactorSchema>;

/** Two-factor disable: the account password. */
export const disableTwoFactorSchema = z.object({
  password: requiredString(M.twoFactorDisablePasswordRequired),
});
export type DisableTwoFactorValues = z.infer<typeof disableTwoFactorSchema>;

/** Create API Key panel. Allowed IPs: one per line, optional. */
export const createApiKeySchema = z.object({
  description: requiredString(M.apiKeyDescriptionRequired, { trim: true }).check(
    z.minLength(API_KEY_DESCRIPTION_MIN, M.apiKeyDescriptionMin),
  ),
  allowedIps: z.string(),
});
export type CreateApiKeyValues = z.infer<typeof createApiKeySchema>;

/** Splits the allowed-IPs text into entries: one per line, blanks dropped. */
export function parseAllowedIps(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** Search modal term. */
export const searchSchema = z.object({
  term: z.string().check(z.minLength(SEARCH_MIN_LENGTH, M.searchMin)),
});
export type SearchValues = z.infer<typeof searchSchema>;
