import { describe, expect, it } from 'vitest';
import { readCookie, xsrfToken } from './cookies.ts';

describe('cookies', () => {
  it('reads and URL-decodes a named cookie', () => {
    expect(readCookie('a=1; XSRF-TOKEN=x%2By%3D; b=2', 'XSRF-TOKEN')).toBe('x+y=');
    expect(readCookie('XSRF-TOKENX=1', 'XSRF-TOKEN')).toBeNull();
    expect(readCookie('bad=%E0%A4%A', 'bad')).toBe('%E0%A4%A');
  });
  it('falls back to nil for the XSRF header', () => {
    expect(xsrfToken('')).toBe('nil');
    expect(xsrfToken('XSRF-TOKEN=tok')).toBe('tok');
  });
});
