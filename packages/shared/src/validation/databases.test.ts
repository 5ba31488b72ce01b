import { describe, expect, it } from 'vitest';
import {
  API_APPLICATION_REMOTE,
  API_CLIENT_REMOTE,
  API_DATABASE_NAME,
  DATABASE_VALIDATION_MESSAGES as M,
  databaseDeleteConfirmed,
  databaseNameError,
  databaseRemoteError,
  prefixedDatabaseName,
} from './databases.ts';

describe('database form rules (spec 001 §5)', () => {
  it('names: required, 3–48, letters, digits, underscore, dash and period, with the spec texts', () => {
    expect(databaseNameError('')).toBe('A database name must be provided.');
    expect(databaseNameError('   ')).toBe(M.nameRequired);
    expect(databaseNameError('ab')).toBe('Database name must be at least 3 characters.');
    expect(databaseNameError('a'.repeat(49))).toBe('Database name must not exceed 48 characters.');
    expect(databaseNameError('bad name')).toBe(
      'Database name should only contain alphanumeric characters, underscores, dashes, and/or periods.',
    );
    expect(databaseNameError('luck-perms_1.db')).toBeNull();
    expect(databaseNameError('a'.repeat(48))).toBeNull();
  });

  it('connections from: up to four dot-separated parts of 1–3 digits or %', () => {
    expect(databaseRemoteError('')).toBe('A connection value must be provided.');
    for (const ok of ['%', '127.0.0.1', '192.168.%', '10.%.%.%', '1'])
      expect(databaseRemoteError(ok)).toBeNull();
    for (const bad of ['1.2.3.4.5', '1234', 'localhost', '10.0.0.', '%%', '10..1']) {
      expect(databaseRemoteError(bad)).toBe('A valid connection address must be provided.');
    }
  });

  it('delete confirmation: the part after the first underscore, or the full name', () => {
    expect(databaseDeleteConfirmed('s12_luck_perms', 'luck_perms')).toBe(true);
    expect(databaseDeleteConfirmed('s12_luck_perms', 's12_luck_perms')).toBe(true);
    expect(databaseDeleteConfirmed('s12_luck_perms', 'perms')).toBe(false);
    expect(databaseDeleteConfirmed('s12_luck_perms', '')).toBe(false);
  });
});

describe('API rules (reference §3.3, §5.6)', () => {
  it('prefixes with s<server id>_ and cuts to 48 characters', () => {
    expect(prefixedDatabaseName(7, 'perms')).toBe('s7_perms');
    expect(prefixedDatabaseName(123, 'x'.repeat(48))).toBe(`s123_${'x'.repeat(43)}`);
  });

  it("names: ASCII letters, digits, _, - and . (the form's characters)", () => {
    expect(API_DATABASE_NAME.test('luck-perms_1.db')).toBe(true);
    expect(API_DATABASE_NAME.test('café')).toBe(false);
    expect(API_DATABASE_NAME.test('a`b')).toBe(false);
    expect(API_DATABASE_NAME.test('a b')).toBe(false);
  });

  it('remote patterns of the client and application APIs', () => {
    expect(API_CLIENT_REMOTE.test('192.168.1.%')).toBe(true);
    expect(API_CLIENT_REMOTE.test("%' OR 1")).toBe(false);
    expect(API_APPLICATION_REMOTE.test('10.0.0.%')).toBe(true);
    expect(API_APPLICATION_REMOTE.test('example.com')).toBe(false);
    expect(API_APPLICATION_REMOTE.test('1234567890123456')).toBe(false);
  });
});
