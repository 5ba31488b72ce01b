import { describe, expect, it } from 'vitest';
import { Denylist } from './denylist.ts';

// Times are given explicitly (ms since the epoch): the rules are about which second and which
// millisecond a token was issued in, relative to a denial.
describe('Denylist', () => {
  it('issue 23 item 9: a token issued in the denial second but after it is accepted (issued_at_ms)', () => {
    const d = new Denylist(10_000);
    d.deny(['j'], 20_300);
    expect(d.isDenied({ jti: 'j', iat: 20, issued_at_ms: 20_700 })).toBe(false);
    expect(d.isRevoked({ jti: 'j', iat: 20, issued_at_ms: 20_700 })).toBe(false);
    // issued before it in the same second, or exactly at it: refused
    expect(d.isDenied({ jti: 'j', iat: 20, issued_at_ms: 20_100 })).toBe(true);
    expect(d.isDenied({ jti: 'j', iat: 20, issued_at_ms: 20_300 })).toBe(true);
    // without the claim (or with one that contradicts iat) the same second cannot be told: refused
    expect(d.isDenied({ jti: 'j', iat: 20 })).toBe(true);
    expect(d.isDenied({ jti: 'j', iat: 20, issued_at_ms: 21_500 })).toBe(true);
    // whole seconds decide by themselves
    expect(d.isDenied({ jti: 'j', iat: 19, issued_at_ms: 19_999 })).toBe(true);
    expect(d.isDenied({ jti: 'j', iat: 21 })).toBe(false);
  });

  it('a fractional iat (signed URLs allow it) is compared to the millisecond', () => {
    const d = new Denylist(10_000);
    d.deny(['j'], 20_300);
    expect(d.isRevoked({ jti: 'j', iat: 20.2 })).toBe(true);
    expect(d.isRevoked({ jti: 'j', iat: 20.4 })).toBe(false);
  });

  it("denies a user's tokens on the named servers, issued at or before the denial", () => {
    const d = new Denylist(10_000);
    const before = d.version;
    d.denyUser('u', ['s1', 's2'], 30_500);
    expect(d.version).toBeGreaterThan(before);
    expect(d.isDenied({ user_uuid: 'u', server_uuid: 's1', iat: 30, issued_at_ms: 30_400 })).toBe(true);
    expect(d.isRevoked({ user_uuid: 'u', server_uuid: 's2', iat: 29 })).toBe(true);
    expect(d.isDenied({ user_uuid: 'u', server_uuid: 's1', iat: 30, issued_at_ms: 30_600 })).toBe(false);
    expect(d.isDenied({ user_uuid: 'u', server_uuid: 's1', iat: 31 })).toBe(false);
    // another server, another user
    expect(d.isDenied({ user_uuid: 'u', server_uuid: 's3', iat: 29 })).toBe(false);
    expect(d.isDenied({ user_uuid: 'v', server_uuid: 's1', iat: 29 })).toBe(false);
  });

  it('a user denial without servers covers every server; a later denial moves the moment on', () => {
    const d = new Denylist(10_000);
    d.denyUser('u', undefined, 30_500);
    expect(d.isRevoked({ user_uuid: 'u', server_uuid: 'any', iat: 30 })).toBe(true);
    expect(d.isRevoked({ user_uuid: 'u', server_uuid: 'any', iat: 31 })).toBe(false);
    d.denyUser('u', ['s1'], 40_000);
    expect(d.isRevoked({ user_uuid: 'u', server_uuid: 's1', iat: 35 })).toBe(true);
    expect(d.isRevoked({ user_uuid: 'u', server_uuid: 's2', iat: 35 })).toBe(false);
  });

  it('keeps the boot rule for websocket tokens (boot second accepted) and not for signed URLs', () => {
    const d = new Denylist(10_500);
    expect(d.isDenied({ iat: 9 })).toBe(true);
    expect(d.isDenied({ iat: 10 })).toBe(false);
    expect(d.isDenied({})).toBe(true);
    expect(d.isRevoked({ iat: 9, jti: 'j' })).toBe(false);
    expect(d.isRevoked({})).toBe(false);
  });
});
