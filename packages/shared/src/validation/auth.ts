import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, VALIDATION_MESSAGES as M } from './messages.ts';

/** /auth/login: username or email plus password. */
export const loginSchema = z.object({
  username: z.string().trim().min(1, { error: M.loginUserRequired, abort: true }),
  password: z.string().min(1, { error: M.loginPasswordRequired, abort: true }),
});
export type LoginValues = z.infer<typeof loginSchema>;

/** /auth/password: request a reset link. */
export const forgotPasswordSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, { error: M.resetEmailRequired, abort: true })
    .pipe(z.email(M.resetEmailRequired)),
});
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

/** /auth/password/reset/{token}: choose the new password. */
export const resetPasswordSchema = z
  .object({
    password: z
      .string()
      .min(1, { error: M.resetPasswordRequired, abort: true })
      .min(PASSWORD_MIN_LENGTH, M.resetPasswordMin),
    passwordConfirmation: z.string().min(1, { error: M.resetConfirmationMismatch, abort: true }),
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: M.resetConfirmationMismatch,
    path: ['passwordConfirmation'],
  });
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;

/** /auth/login/checkpoint: one of the two codes, depending on the toggle. */
export const checkpointCodeSchema = z.object({
  code: z.string().trim().min(1, { error: M.checkpointCodeRequired, abort: true }),
});
export const checkpointRecoverySchema = z.object({
  code: z.string().trim().min(1, { error: M.checkpointRecoveryRequired, abort: true }),
});
export type CheckpointValues = z.infer<typeof checkpointCodeSchema>;
