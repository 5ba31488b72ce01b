import { describe, expect, it } from 'vitest';
import { parseWireDate } from './dates.ts';
import { formatLastUsed } from './formatDate.ts';

describe('dates', () => {
  it('formats as MMM do, yyyy HH:mm', () => {
    expect(formatLastUsed(new Date(2025, 0, 5, 14, 3))).toBe('Jan 5th, 2025 14:03');
    expect(formatLastUsed(new Date(2024, 10, 22, 9, 0))).toBe('Nov 22nd, 2024 09:00');
    expect(formatLastUsed(new Date(2023, 2, 1, 23, 59))).toBe('Mar 1st, 2023 23:59');
  });
  it('keeps null as null (shown as Never)', () => {
    expect(formatLastUsed(null)).toBeNull();
  });
  it('parses wire dates', () => {
    expect(parseWireDate('2024-05-01T10:00:00.000000Z')?.toISOString()).toBe('2024-05-01T10:00:00.000Z');
    expect(parseWireDate(null)).toBeNull();
    expect(parseWireDate('not a date')).toBeNull();
  });
});
