import * as z from 'zod/mini';
import { PASSWORD_MIN_LENGTH, VALIDATION_MESSAGES as M } from './messages.ts';

// zod/mini keeps the web app's first download small; the schemas work with the classic API too.

/** A string that must not be empty; the message is the only one reported when it is. */
export function requiredString(message: string, options: { trim?: boolean } = {}) {
  return options.trim
    ? z.string().check(z.trim(), z.minLength(1, { error: message, abort: true }))
    : z.string().check(z.minLength(1, { error: message, abort: true }));
}

/** /auth/login: username or email plus password. */
export const loginSchema = z.object({
  username: requiredString(M.loginUserRequired, { trim: true }),
  password: requiredString(M.loginPasswordRequired),
});
export type LoginValues = z.infer<typeof loginSchema>;

/** /auth/password: request a reset link. */
export const forgotPasswordSchema = z.object({
  email: z.pipe(requiredString(M.resetEmailRequired, { trim: true }), z.email(M.resetEmailRequired)),
});
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

/** /auth/password/reset/{token}: choose the new password. */
export const resetPasswordSchema = z
  .object({
    password: requiredString(M.resetPasswordRequired).check(
      z.minLength(PASSWORD_MIN_LENGTH, M.resetPasswordMin),
    ),
    passwordConfirmation: requiredString(M.resetConfirmationMismatch),
  })
  .check(
    z.refine((v) => v.password === v.passwordConfirmation, {
      message: M.resetConfirmationMismatch,
      path: ['passwordConfirmation'],
      when: (payload) => {
        const v = payload.value as { password?: unknown; passwordConfirmation?: unknown };
        return typeof v.passwordConfirmation === 'string' && v.passwordConfirmation.length > 0;
      },
    }),
  );
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;

/** /auth/login/checkpoint: one of the two codes, depending on the toggle. */
export const checkpointCodeSchema = z.object({
  code: requiredString(M.checkpointCodeRequired, { trim: true }),
});
export const checkpointRecoverySchema = z.object({
  code: requiredString(M.checkpointRecoveryRequired, { trim: true }),
});
export type CheckpointValues = z.infer<typeof checkpointCodeSchema>;
