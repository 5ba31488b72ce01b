import { describe, expect, it } from 'vitest';
import {
  checkpointCodeSchema,
  checkpointRecoverySchema,
  forgotPasswordSchema,
  loginSchema,
  resetPasswordSchema,
} from './auth.ts';

function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('loginSchema', () => {
  it('requires a username or email and a password, with the spec messages', () => {
    expect(messages(loginSchema.safeParse({ username: '', password: '' }))).toEqual([
      'username: A username or email must be provided.',
      'password: Please enter your account password.',
    ]);
  });
  it('treats whitespace-only usernames as missing', () => {
    expect(messages(loginSchema.safeParse({ username: '   ', password: 'x' }))).toEqual([
      'username: A username or email must be provided.',
    ]);
  });
  it('accepts a username or an email', () => {
    expect(loginSchema.safeParse({ username: 'admin', password: 'secret' }).success).toBe(true);
    expect(loginSchema.safeParse({ username: 'a@b.co', password: 'secret' }).success).toBe(true);
  });
});

describe('forgotPasswordSchema', () => {
  it('requires a valid email', () => {
    const msg = 'email: A valid email address must be provided to continue.';
    expect(messages(forgotPasswordSchema.safeParse({ email: '' }))).toEqual([msg]);
    expect(messages(forgotPasswordSchema.safeParse({ email: 'nope' }))).toEqual([msg]);
    expect(forgotPasswordSchema.safeParse({ email: 'user@example.com' }).success).toBe(true);
  });
});

describe('resetPasswordSchema', () => {
  it('requires a new password', () => {
    expect(messages(resetPasswordSchema.safeParse({ password: '', passwordConfirmation: '' }))).toContain(
      'password: A new password is required.',
    );
  });
  it('requires at least 8 characters', () => {
    expect(
      messages(resetPasswordSchema.safeParse({ password: 'short', passwordConfirmation: 'short' })),
    ).toEqual(['password: Your new password should be at least 8 characters in length.']);
  });
  it('requires the confirmation to match', () => {
    expect(
      messages(resetPasswordSchema.safeParse({ password: 'longenough', passwordConfirmation: 'different' })),
    ).toEqual(['passwordConfirmation: Your new password does not match.']);
    expect(
      messages(resetPasswordSchema.safeParse({ password: 'longenough', passwordConfirmation: '' })),
    ).toContain('passwordConfirmation: Your new password does not match.');
  });
  it('accepts matching passwords of 8 or more characters', () => {
    expect(
      resetPasswordSchema.safeParse({ password: '12345678', passwordConfirmation: '12345678' }).success,
    ).toBe(true);
  });
});

describe('checkpoint schemas', () => {
  it('require the code of the selected kind', () => {
    expect(messages(checkpointCodeSchema.safeParse({ code: '' }))).toEqual([
      'code: An authentication code is required.',
    ]);
    expect(messages(checkpointRecoverySchema.safeParse({ code: ' ' }))).toEqual([
      'code: A recovery code is required.',
    ]);
    expect(checkpointCodeSchema.safeParse({ code: '123456' }).success).toBe(true);
  });
});
