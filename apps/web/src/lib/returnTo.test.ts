import { describe, expect, it } from 'vitest';
import { signInPathFor } from '../app/signInPath.ts';
import { safeReturnPath } from './returnTo.ts';

const ORIGIN = 'https://panel.example.com';

describe('safeReturnPath', () => {
  it('follows a path on this panel, with its query and fragment', () => {
    expect(safeReturnPath('/server/1a2b3c4d', ORIGIN)).toBe('/server/1a2b3c4d');
    expect(safeReturnPath('/server/1a2b3c4d/files?sort=name#top', ORIGIN)).toBe(
      '/server/1a2b3c4d/files?sort=name#top',
    );
    expect(safeReturnPath('/account/../server/x', ORIGIN)).toBe('/server/x');
  });

  it.each([
    [null],
    [''],
    ['server/1'],
    ['//evil.example/steal'],
    ['///evil.example'],
    ['https://evil.example/steal'],
    [`${ORIGIN.replace('https', 'http')}/server/1`],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['/\t/evil.example'],
    ['/\n/evil.example'],
    ['javascript:alert(1)'],
    ['/.//evil.example/steal'],
    ['/a/..//evil.example'],
    ['/%2e//evil.example'],
    ['/auth/login'],
    ['/auth/login/checkpoint'],
  ])('refuses %j', (next) => {
    expect(safeReturnPath(next, ORIGIN)).toBeNull();
  });
});

describe('signInPathFor', () => {
  it('carries the address opened, encoded, and nothing for the home page', () => {
    expect(signInPathFor({ pathname: '/server/1a2b', search: '?x=1', hash: '#y' })).toBe(
      '/auth/login?next=%2Fserver%2F1a2b%3Fx%3D1%23y',
    );
    expect(signInPathFor({ pathname: '/', search: '', hash: '' })).toBe('/auth/login');
  });
});
