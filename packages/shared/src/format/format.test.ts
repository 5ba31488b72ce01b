import { describe, expect, it } from 'vitest';
import { formatBytes, formatBytesShort, megabytesToBytes } from './bytes.ts';
import { formatUptime } from './uptime.ts';
import { capitalize } from './text.ts';

describe('formatBytesShort', () => {
  it.each([
    [0, '0 B'],
    [-5, '0 B'],
    [512, '512 B'],
    [1023, '1023 B'],
    [1024, '1 kB'],
    [1536, '1.5 kB'],
    [10 * 1024 + 300, '10 kB'],
    [1023 * 1024, '1023 kB'],
    [5.25 * 1024 ** 3, '5.3 GB'],
    [3 * 1024 ** 5, '3072 TB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytesShort(bytes)).toBe(text);
  });
});

describe('formatBytes', () => {
  it('uses Bytes, kB, MB, GB, TB with 2 decimals', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(512)).toBe('512.00 Bytes');
    expect(formatBytes(1536)).toBe('1.50 kB');
    expect(formatBytes(1024 ** 2 * 3)).toBe('3.00 MB');
    expect(formatBytes(1024 ** 3 * 1.25)).toBe('1.25 GB');
    expect(formatBytes(1024 ** 4 * 2)).toBe('2.00 TB');
    expect(formatBytes(1024 ** 5)).toBe('1024.00 TB');
  });
  it('converts megabytes by 1024 squared', () => {
    expect(megabytesToBytes(1)).toBe(1048576);
    expect(formatBytes(megabytesToBytes(512))).toBe('512.00 MB');
  });
});

describe('formatUptime', () => {
  it('uses hours, minutes and seconds under a day', () => {
    expect(formatUptime(0)).toBe('0h 0m 0s');
    expect(formatUptime(3661)).toBe('1h 1m 1s');
    expect(formatUptime(86399)).toBe('23h 59m 59s');
  });
  it('uses days, hours and minutes from one day', () => {
    expect(formatUptime(86400)).toBe('1d 0h 0m');
    expect(formatUptime(2 * 86400 + 5 * 3600 + 7 * 60 + 9)).toBe('2d 5h 7m');
  });
});

describe('capitalize', () => {
  it('upper-cases the first letter only', () => {
    expect(capitalize('the email field is required.')).toBe('The email field is required.');
    expect(capitalize('')).toBe('');
  });
});
