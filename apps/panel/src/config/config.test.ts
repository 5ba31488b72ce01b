import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'talon-config-'));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('reports every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        DATA_DIR: dataDir,
        PORT: 'eighty',
        DATABASE_URL: 'mysql://db/panel',
        LOG_LEVEL: 'chatty',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems).toHaveLength(3);
    expect(problems.some((p) => p.startsWith('PORT:'))).toBe(true);
    expect(problems).toContain('DATABASE_URL: must start with postgres://, postgresql:// or sqlite:');
    expect(problems.some((p) => p.startsWith('LOG_LEVEL:'))).toBe(true);
    expect(message).toMatch(/^Invalid configuration:\n {2}- /u);
  });

  it('applies the defaults, generates the app key once and keeps it in DATA_DIR', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 8080,
      appUrl: 'http://localhost:8080',
      databaseUrl: `sqlite:${path.join(dataDir, 'panel.sqlite')}`,
      twoFactorRequired: null,
      rateLimits: { client: 720, application: 240 },
    });
    expect(config.appKey).toHaveLength(32);
    const file = path.join(dataDir, 'app.key');
    expect(readFileSync(file, 'utf8')).toMatch(/^base64:[A-Za-z0-9+/]{43}=\n$/u);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir }).appKey.equals(config.appKey)).toBe(true);
  });

  it('uses APP_KEY when given and refuses a malformed one', () => {
    const key = Buffer.alloc(32, 7);
    expect(
      loadConfig({ DATA_DIR: dataDir, APP_KEY: `base64:${key.toString('base64')}` }).appKey.equals(key),
    ).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir, APP_KEY: key.toString('hex') }).appKey.equals(key)).toBe(true);
    expect(() => loadConfig({ DATA_DIR: dataDir, APP_KEY: 'short' })).toThrow(ConfigError);
  });

  it('reads the other settings', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '9000',
      APP_URL: 'https://panel.example.com/',
      DATABASE_URL: 'postgres://u:p@db/panel',
      APP_2FA_REQUIRED: '2',
      TRUSTED_PROXIES: '10.0.0.1, 10.0.0.2',
      MAIL_ENCRYPTION: '',
    });
    expect(config).toMatchObject({
      port: 9000,
      appUrl: 'https://panel.example.com',
      databaseUrl: 'postgres://u:p@db/panel',
      twoFactorRequired: 2,
      trustedProxies: ['10.0.0.1', '10.0.0.2'],
      mail: { encryption: 'none' },
    });
    expect(() => loadConfig({ DATA_DIR: dataDir, RECAPTCHA_ENABLED: 'true' })).toThrow(
      /RECAPTCHA_SECRET_KEY/u,
    );
  });
});
