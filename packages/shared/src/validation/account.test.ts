import { describe, expect, it } from 'vitest';
import {
  createApiKeySchema,
  disableTwoFactorSchema,
  enableTwoFactorSchema,
  parseAllowedIps,
  searchSchema,
  updateEmailSchema,
  updatePasswordSchema,
} from './account.ts';

function messages(result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('updatePasswordSchema', () => {
  it('requires the current password', () => {
    expect(
      messages(
        updatePasswordSchema.safeParse({ current: '', password: 'password1', confirmPassword: 'password1' }),
      ),
    ).toEqual(['current: You must provide your current password.']);
  });
  it('requires a new password of at least 8 characters', () => {
    expect(
      messages(updatePasswordSchema.safeParse({ current: 'x', password: 'short', confirmPassword: 'short' })),
    ).toEqual(['password: Your new password should be at least 8 characters in length.']);
    expect(
      messages(updatePasswordSchema.safeParse({ current: 'x', password: '', confirmPassword: '' })),
    ).toContain('password: A new password is required.');
  });
  it('requires the confirmation to match', () => {
    expect(
      messages(
        updatePasswordSchema.safeParse({ current: 'x', password: 'password1', confirmPassword: 'password2' }),
      ),
    ).toEqual(['confirmPassword: Password confirmation does not match the password you entered.']);
  });
  it('accepts a valid change', () => {
    expect(
      updatePasswordSchema.safeParse({ current: 'x', password: 'password1', confirmPassword: 'password1' })
        .success,
    ).toBe(true);
  });
});

describe('updateEmailSchema', () => {
  it('requires a valid email and the account password', () => {
    expect(messages(updateEmailSchema.safeParse({ email: 'bad', password: '' }))).toEqual([
      'email: A valid email address must be provided.',
      'password: You must provide your current account password.',
    ]);
    expect(messages(updateEmailSchema.safeParse({ email: '', password: 'x' }))).toEqual([
      'email: An email address must be provided.',
    ]);
    expect(updateEmailSchema.safeParse({ email: 'new@example.com', password: 'x' }).success).toBe(true);
  });
});

describe('enableTwoFactorSchema', () => {
  it('requires a code', () => {
    expect(messages(enableTwoFactorSchema.safeParse({ code: '' }))).toEqual([
      'code: You must provide an authentication code to continue.',
    ]);
  });
  it('requires exactly 6 digits', () => {
    for (const code of ['12345', '1234567', 'abcdef', '12 456']) {
      expect(messages(enableTwoFactorSchema.safeParse({ code }))).toEqual([
        'code: Authenticator code must be 6 digits.',
      ]);
    }
    expect(enableTwoFactorSchema.safeParse({ code: '012345' }).success).toBe(true);
  });
});

describe('disableTwoFactorSchema', () => {
  it('requires the password', () => {
    expect(messages(disableTwoFactorSchema.safeParse({ password: '' }))).toEqual([
      'password: You must provide your current password in order to continue.',
    ]);
    expect(disableTwoFactorSchema.safeParse({ password: 'pw' }).success).toBe(true);
  });
});

describe('createApiKeySchema', () => {
  it('requires a description of at least 4 characters', () => {
    expect(messages(createApiKeySchema.safeParse({ description: '', allowedIps: '' }))).toContain(
      'description: A description for this API key is required.',
    );
    expect(messages(createApiKeySchema.safeParse({ description: 'abc', allowedIps: '' }))).toEqual([
      'description: The description must be at least 4 characters.',
    ]);
    expect(createApiKeySchema.safeParse({ description: 'abcd', allowedIps: '' }).success).toBe(true);
  });
  it('splits allowed IPs one per line, dropping blanks', () => {
    expect(parseAllowedIps('')).toEqual([]);
    expect(parseAllowedIps('10.0.0.1\r\n\n  192.168.0.0/24  \n')).toEqual(['10.0.0.1', '192.168.0.0/24']);
  });
});

describe('searchSchema', () => {
  it('needs three characters', () => {
    expect(messages(searchSchema.safeParse({ term: 'ab' }))).toEqual([
      'term: Please enter at least three characters to begin searching.',
    ]);
    expect(searchSchema.safeParse({ term: 'abc' }).success).toBe(true);
  });
});
