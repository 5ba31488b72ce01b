import { z } from 'zod';
import {
  API_KEY_DESCRIPTION_MIN,
  PASSWORD_MIN_LENGTH,
  SEARCH_MIN_LENGTH,
  TWO_FACTOR_CODE_LENGTH,
  VALIDATION_MESSAGES as M,
} from './messages.ts';

/** Update Password panel. */
export const updatePasswordSchema = z
  .object({
    current: z.string().min(1, { error: M.currentPasswordRequired, abort: true }),
    password: z
      .string()
      .min(1, { error: M.newPasswordRequired, abort: true })
      .min(PASSWORD_MIN_LENGTH, M.newPasswordMin),
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: M.passwordConfirmationMismatch,
    path: ['confirmPassword'],
  });
export type UpdatePasswordValues = z.infer<typeof updatePasswordSchema>;

/** Update Email Address panel. */
export const updateEmailSchema = z.object({
  email: z.string().trim().min(1, { error: M.emailRequired, abort: true }).pipe(z.email(M.emailInvalid)),
  password: z.string().min(1, { error: M.accountPasswordRequired, abort: true }),
});
export type UpdateEmailValues = z.infer<typeof updateEmailSchema>;

/** Two-factor setup: the 6-digit code from the authenticator app. */
export const enableTwoFactorSchema = z.object({
  code: z
    .string()
    .min(1, { error: M.twoFactorCodeRequired, abort: true })
    .regex(new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`), M.twoFactorCodeDigits),
});
export type EnableTwoFactorValues = z.infer<typeof enableTwoFactorSchema>;

/** Two-factor disable: the account password. */
export const disableTwoFactorSchema = z.object({
  password: z.string().min(1, { error: M.twoFactorDisablePasswordRequired, abort: true }),
});
export type DisableTwoFactorValues = z.infer<typeof disableTwoFactorSchema>;

/** Create API Key panel. Allowed IPs: one per line, optional. */
export const createApiKeySchema = z.object({
  description: z
    .string()
    .trim()
    .min(1, { error: M.apiKeyDescriptionRequired, abort: true })
    .min(API_KEY_DESCRIPTION_MIN, M.apiKeyDescriptionMin),
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
  term: z.string().min(SEARCH_MIN_LENGTH, M.searchMin),
});
export type SearchValues = z.infer<typeof searchSchema>;
