import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

// config.fromEnvironment: the variables really set, so a setting also editable on the admin
// Settings screen is read-only there exactly when its variable is set (not when it is defaulted).
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'talon-config-'));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('config.fromEnvironment', () => {
  it('names the panel variables that are set, not the defaulted ones nor foreign ones', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      MAIL_HOST: 'smtp.example.com',
      MAIL_PORT: '2525',
      HOME: '/root',
    });
    expect([...config.fromEnvironment].sort()).toEqual(['DATA_DIR', 'MAIL_HOST', 'MAIL_PORT']);
    // The defaulted ones still have their value.
    expect(config.appName).toBe('Talon');
    expect(config.fromEnvironment.has('APP_NAME')).toBe(false);
  });

  it('counts an empty variable as unset, as the parsing does', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      MAIL_HOST: '',
      APP_NAME: ' ',
      RECAPTCHA_ENABLED: 'false',
    });
    expect(config.fromEnvironment.has('MAIL_HOST')).toBe(false);
    // An explicit "false" is a value an admin cannot override.
    expect(config.fromEnvironment.has('RECAPTCHA_ENABLED')).toBe(true);
  });
});
