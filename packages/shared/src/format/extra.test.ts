import { describe, expect, it } from 'vitest';
import { allocationAddress } from './address.ts';
import { formatModeBits } from './mode.ts';
import { formatLimit, isResourceAlarm } from './limits.ts';
import { formatUptime } from './uptime.ts';
import { formatBytes } from './bytes.ts';

describe('allocationAddress', () => {
  it.each([
    [{ ip: '10.0.0.1', alias: null, port: 25565 }, '10.0.0.1:25565'],
    [{ ip: '10.0.0.1', alias: 'play.example.com', port: 25565 }, 'play.example.com:25565'],
    [{ ip: '10.0.0.1', alias: '', port: 1 }, '10.0.0.1:1'],
    // An IPv6 address in brackets, as players type it into a game client (RFC 3986 host syntax).
    [{ ip: '::1', port: 30000 }, '[::1]:30000'],
    [{ ip: '2001:db8::5', alias: null, port: 25565 }, '[2001:db8::5]:25565'],
  ])('%j → %s', (allocation, expected) => {
    expect(allocationAddress(allocation)).toBe(expected);
  });
});

describe('formatModeBits', () => {
  it.each([
    [0o755, 'rwxr-xr-x'],
    [0o644, 'rw-r--r--'],
    [0, '---------'],
    [0o777, 'rwxrwxrwx'],
    [0o4755, 'rwxr-xr-x'],
    ['0755', 'rwxr-xr-x'],
    ['600', 'rw-------'],
    ['zz', '---------'],
  ])('%s → %s', (mode, expected) => {
    expect(formatModeBits(mode)).toBe(expected);
  });
});

describe('isResourceAlarm', () => {
  it.each([
    [89.9, 100, false],
    [90, 100, true],
    [100, 100, true],
    [150, 100, true],
    [1_000_000, 0, false],
    [0, 0, false],
    [0, 512, false],
  ])('%s of %s → %s', (used, limit, expected) => {
    expect(isResourceAlarm(used, limit)).toBe(expected);
  });
});

describe('formatLimit', () => {
  it.each([
    [0, 'Unlimited'],
    [100, '100 %'],
    [-1, 'Unlimited'],
  ])('%s → %s', (limit, expected) => {
    expect(formatLimit(limit, (v) => `${v} %`)).toBe(expected);
  });
});

describe('formatUptime edges', () => {
  it.each([
    [59, '0h 0m 59s'],
    [60, '0h 1m 0s'],
    [86_399.9, '23h 59m 59s'],
    [86_400, '1d 0h 0m'],
    [-5, '0h 0m 0s'],
    [400 * 86_400 + 3_600, '400d 1h 0m'],
  ])('%s → %s', (seconds, expected) => {
    expect(formatUptime(seconds)).toBe(expected);
  });
});

describe('formatBytes edges', () => {
  it.each([
    [1, '1.00 Bytes'],
    [1023, '1023.00 Bytes'],
    [1024, '1.00 kB'],
    [NaN, '0 Bytes'],
    [-10, '0 Bytes'],
  ])('%s → %s', (bytes, expected) => {
    expect(formatBytes(bytes)).toBe(expected);
  });
});
