import { describe, expect, it } from 'vitest';
import { settingsProblems, toPatch, type SettingsFormValues } from './settingsForm.ts';

const valid: SettingsFormValues = {
  appName: 'Talon',
  twoFactor: 'none',
  recaptchaEnabled: false,
  recaptchaSiteKey: '',
  recaptchaSecretKey: '',
  recaptchaSecretSet: false,
  mailHost: 'smtp.example.com',
  mailPort: '587',
  mailEncryption: 'tls',
  mailUsername: '',
  mailPassword: '',
  mailPasswordClear: false,
  mailFromAddress: 'panel@example.com',
  mailFromName: '',
  allocationsEnabled: false,
  allocationsStart: '',
  allocationsEnd: '',
  remoteAvatars: false,
};

describe('settings form rules', () => {
  it('accepts valid settings', () => {
    expect(settingsProblems(valid)).toEqual({});
  });

  it('names each bad field once, in words', () => {
    expect(
      settingsProblems({
        ...valid,
        appName: '  ',
        mailPort: '70000',
        mailFromAddress: 'not an address',
        recaptchaEnabled: true,
        allocationsEnabled: true,
        allocationsStart: '30000',
        allocationsEnd: '2x',
      }),
    ).toEqual({
      appName: 'The site name is required.',
      mailPort: 'Enter the SMTP port (1–65535; often 587, 465 or 25).',
      mailFromAddress: 'Enter a valid email address.',
      recaptchaSiteKey: 'Enter the site key to turn reCAPTCHA on.',
      recaptchaSecretKey: 'Enter the secret key to turn reCAPTCHA on.',
      allocationsEnd: 'Enter a port between 1 and 65535.',
    });
  });

  it('accepts the panel’s own default sender no-reply@localhost (a single-label domain) and refuses malformed ones', () => {
    for (const sender of ['no-reply@localhost', 'panel@mailhost', 'panel@example.com']) {
      expect(settingsProblems({ ...valid, mailFromAddress: sender })).toEqual({});
    }
    for (const sender of [
      'no-reply@',
      '@localhost',
      'no-reply@-localhost',
      'no-reply@localhost.',
      'a b@localhost',
    ]) {
      expect(settingsProblems({ ...valid, mailFromAddress: sender })).toEqual({
        mailFromAddress: 'Enter a valid email address.',
      });
    }
  });

  it('keeps a stored reCAPTCHA secret when the box is left empty', () => {
    expect(
      settingsProblems({
        ...valid,
        recaptchaEnabled: true,
        recaptchaSiteKey: 'site',
        recaptchaSecretSet: true,
      }),
    ).toEqual({});
  });

  it('refuses a port range that runs backwards', () => {
    expect(
      settingsProblems({
        ...valid,
        allocationsEnabled: true,
        allocationsStart: '40000',
        allocationsEnd: '39000',
      }),
    ).toEqual({ allocationsEnd: 'The last port must not be below the first.' });
  });
});

describe('settings patch', () => {
  it('trims text, leaves out locked fields and empty secrets, and sends new secrets', () => {
    const patch = toPatch(
      { ...valid, appName: ' Blue Fox ', mailHost: ' ', mailPassword: 'hunter2', recaptchaSecretKey: '' },
      ['mail.encryption', 'two_factor'],
    );
    expect(patch).toEqual({
      app_name: 'Blue Fox',
      recaptcha: { enabled: false, site_key: '' },
      mail: {
        host: null,
        port: 587,
        username: null,
        password: 'hunter2',
        from_address: 'panel@example.com',
        from_name: null,
      },
      client_allocations: { enabled: false, range_start: null, range_end: null },
      avatars: { remote: false },
    });
  });

  it('never asks to clear a password that an environment variable sets', () => {
    expect(toPatch({ ...valid, mailPasswordClear: true }, ['mail.password']).mail).not.toHaveProperty(
      'password_clear',
    );
    expect(toPatch({ ...valid, mailPasswordClear: true }, []).mail).toMatchObject({ password_clear: true });
  });
});
