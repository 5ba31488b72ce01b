import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.ts';
import { Denylist } from '../ws/denylist.ts';
import { verifyWebsocketToken } from '../ws/jwt.ts';
import { signToken } from '../test-support/jwt-sign.ts';
import { ConsoleThrottle, LineSplitter, doneMatcher, stripAnsi } from './console.ts';
import { decideCrash } from './crash.ts';
import { buildEnvironment, substituteStartup } from './environment.ts';
import { remoteServerSchema } from '@talon/shared';
import { fixtureServer } from '../test-support/harness.ts';

describe('console throttle rule', () => {
  it('passes 2000 lines per 100 ms window, one notice at line 2001, the window restarts after it elapsed', () => {
    let t = 0;
    const th = new ConsoleThrottle(2000, 100, () => t);
    t = 1000;
    const verdicts = Array.from({ length: 2005 }, () => th.accept());
    expect(verdicts.filter((v) => v === 'pass')).toHaveLength(2000);
    expect(verdicts[2000]).toBe('notice');
    expect(verdicts.slice(2001).every((v) => v === 'drop')).toBe(true);
    t = 1099;
    expect(th.accept()).toBe('drop');
    t = 1100;
    expect(th.accept()).toBe('pass');
    th.reset();
    t = 1101;
    expect(th.accept()).toBe('pass');
  });
});

describe('console lines and done matching', () => {
  it('splits chunks into lines, keeps partial lines, rewrites " \\r"', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l));
    s.push(Buffer.from('hel'));
    s.push(Buffer.from('lo\nwor'));
    s.push(Buffer.from('ld\r\nmc \r\n'));
    s.push(Buffer.from('tail'));
    s.flush();
    expect(lines).toEqual(['hello', 'world', 'mc\r\n', 'tail']);
  });
  it('matches substrings and regex: entries, optionally after stripping ANSI', () => {
    expect(doneMatcher(['Done ('], false)('[12:00] Done (1.2s)! For help')).toBe(true);
    expect(doneMatcher('regex:^Server started on port \\d+$', false)('Server started on port 25565')).toBe(
      true,
    );
    expect(doneMatcher(['ready'], true)('\x1b[32mre\x1b[0mady')).toBe(true);
    expect(doneMatcher(['regex:('], false)('x regex:( y')).toBe(true); // invalid regex → substring
    expect(stripAnsi('\x1b[1;31mred\x1b[0m')).toBe('red');
  });
});

describe('environment and startup substitution', () => {
  it('orders fixed variables first, renders numbers as integers, substitutes {{VAR}} and ${VAR}', () => {
    const cfg = remoteServerSchema.parse(fixtureServer('9b1d2c3e-1111-4222-8333-444455556666'));
    const env = buildEnvironment(cfg, { timezone: 'UTC', home: '/home/container' });
    expect(Object.keys(env).slice(0, 5)).toEqual([
      'TZ',
      'STARTUP',
      'SERVER_MEMORY',
      'SERVER_IP',
      'SERVER_PORT',
    ]);
    expect(env.P_SERVER_ALLOCATION_LIMIT).toBe('0');
    expect(env.SERVER_MEMORY).toBe('256');
    expect(
      substituteStartup('java -Xmx{{SERVER_MEMORY}}M -jar ${GAME_FILE} {{ env.SERVER_PORT }} {{NOPE}}', env),
    ).toBe('java -Xmx256M -jar game.js 25565 ');
  });
});

describe('crash decision', () => {
  const cfg = { enabled: true, detect_clean_exit_as_crash: true, timeout: 60 };
  it('restarts, refuses within the timeout, ignores clean exits when configured', () => {
    const exit = { code: 3, signal: null, oomKilled: false };
    expect(decideCrash(exit, { enabled: true, lastCrashAt: null, now: 100_000, cfg }).kind).toBe('restart');
    const soon = decideCrash(exit, { enabled: true, lastCrashAt: 50_000, now: 100_000, cfg });
    expect(soon.kind).toBe('too-soon');
    expect(soon.kind !== 'ignore' && soon.lines.at(-1)).toBe(
      'Aborting automatic restart, last crash occurred less than 60 seconds ago.',
    );
    const clean = { code: 0, signal: null, oomKilled: false };
    expect(
      decideCrash(clean, {
        enabled: true,
        lastCrashAt: null,
        now: 0,
        cfg: { ...cfg, detect_clean_exit_as_crash: false },
      }).kind,
    ).toBe('ignore');
    expect(decideCrash(clean, { enabled: false, lastCrashAt: null, now: 0, cfg }).kind).toBe('disabled');
  });
});

describe('JWT and denylist', () => {
  it('verifies HS256 and rejects tampering', async () => {
    const t = await signToken('k', {
      scope: 'websocket',
      exp: 10,
      iat: 1,
      server_uuid: 's',
      permissions: ['*'],
    });
    expect((await verifyWebsocketToken(t, 'k')).server_uuid).toBe('s');
    const [h, , sig] = t.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ scope: 'websocket', exp: 10, iat: 1, server_uuid: 'other', permissions: ['*'] })).toString('base64url')}.${sig}`;
    await expect(verifyWebsocketToken(forged, 'k')).rejects.toThrow('jwt: HMAC verification failed');
    await expect(verifyWebsocketToken('a.b', 'k')).rejects.toThrow('jwt: malformed token');
  });
  it('denies tokens from before boot and before a denial of their jti', () => {
    const d = new Denylist(10_500);
    expect(d.isDenied({ iat: 9 })).toBe(true);
    expect(d.isDenied({ iat: 10 })).toBe(false);
    expect(d.isDenied({})).toBe(true);
    d.deny(['j'], 20_300);
    expect(d.isDenied({ iat: 20, jti: 'j' })).toBe(true);
    expect(d.isDenied({ iat: 21, jti: 'j' })).toBe(false);
    expect(d.isDenied({ iat: 15, jti: 'other' })).toBe(false);
  });
  it('revokes signed URLs only by a denial of their jti (no boot rule, as Wings has none for them)', () => {
    const d = new Denylist(10_500);
    expect(d.isRevoked({ iat: 9, jti: 'j' })).toBe(false);
    expect(d.isRevoked({})).toBe(false);
    d.deny(['j'], 20_300);
    expect(d.isRevoked({ iat: 20, jti: 'j' })).toBe(true);
    expect(d.isRevoked({ jti: 'j' })).toBe(true);
    expect(d.isRevoked({ iat: 21, jti: 'j' })).toBe(false);
    expect(d.isRevoked({ iat: 15, jti: 'other' })).toBe(false);
  });
});

describe('config', () => {
  it('fills defaults and reports every problem', () => {
    const c = parseConfig({ token_id: 'a', token: 'b', remote: 'http://panel' });
    expect(c.runtime.allow_unconfined).toBe(false);
    expect(c.throttles).toEqual({ lines: 2000, line_reset_interval: 100 });
    expect(c.api.port).toBe(8080);
    expect(() => parseConfig({ token: '', remote: 'nope' })).toThrow(/token_id[\s\S]*token[\s\S]*remote/);
  });
});
