import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.ts';
import { rewriteIni } from './ini.ts';
import { parseProperties, rewriteProperties } from './properties.ts';
import type { ReplaceRule } from './rules.ts';
import { configLookup, snakeCase } from './values.ts';
import { rewriteYaml } from './yaml.ts';

/**
 * The rewriter parses files a server's owner writes (CVE-2026-52857 class). Each input here is one
 * the old parsers handled in quadratic or cubic time: at this size that is hours (the ini line of
 * 4,000 spaces alone took 48 s, 100 KB of backslashes 16 s), so finishing at all shows the scan is
 * linear; the assertions check the result is still right.
 */
const MiB = 1024 * 1024;
const lookup = configLookup(parseConfig({ token_id: 'abcdefghijklmnop', token: 't', remote: 'http://panel.test' }));
const rule = (match: string, replaceWith: unknown): ReplaceRule => ({ match, replaceWith, ifValue: '' });

describe('parsers of attacker-written files do not backtrack', () => {
  it('ini: a line of a mebibyte of blanks without a delimiter (cubic before)', () => {
    const blanks = ' '.repeat(MiB);
    const out = rewriteIni(`[Net]\n${blanks}\nPort = 1\n`, [rule('Net.Port', '2')], lookup);
    expect(out).toBe(`[Net]\n${blanks}\nPort = 2\n`);
  });

  it('ini: blanks around a delimiter, and a line of delimiters', () => {
    const pad = ' '.repeat(MiB / 4);
    const colons = ':'.repeat(MiB / 4);
    const out = rewriteIni(`${pad}Port${pad}=${pad}1${pad}\n${colons}\n`, [rule('Port', '2')], lookup);
    expect(out).toBe(`${pad}Port${pad}=${pad}2\n${colons}\n`);
  });

  it('ini: a header-like line of `];` pairs ending in \\r (quadratic before)', () => {
    const pairs = '[' + '];'.repeat(MiB / 2) + '\r';
    const out = rewriteIni(`${pairs}\nPort = 1\n`, [rule('Port', '2')], lookup);
    // The line is a header (a section "];…]" and a comment), so `Port = 1` is in that section and
    // the default section gets its own key.
    expect(out).toBe(`Port = 2\n${pairs}\nPort = 1\n`);
  });

  it('properties: a mebibyte of backslashes (quadratic before)', () => {
    // The old trailing-backslash count rescanned the run from every position when a character
    // follows it. An even number: no continuation, a key of MiB/2 backslashes and the x.
    const slashes = '\\'.repeat(MiB);
    const parsed = parseProperties(`${slashes}x\nserver-port=1\n`);
    expect([...parsed.entries.keys()]).toEqual(['\\'.repeat(MiB / 2) + 'x', 'server-port']);
    const odd = rewriteProperties(`a=${slashes}\\\nb\n`, [rule('server-port', '2')], lookup);
    expect(odd).toBe(`a=${'\\'.repeat(MiB)}b\nserver-port=2\n`); // odd count: the next line continues it
  });

  it('yaml: tens of thousands of keys (quadratic duplicate-key check before)', () => {
    const text = Array.from({ length: 60_000 }, (_, i) => `k${i}: ${i}`).join('\n') + '\n';
    const out = rewriteYaml(text, [rule('k59999', 'x')], lookup, (_r, err) => {
      throw err;
    });
    expect(out.endsWith('k59998: 59998\nk59999: x\n')).toBe(true);
  });

  it('snake_case of a long run of capitals (quadratic before)', () => {
    expect(snakeCase('A'.repeat(MiB))).toBe('a'.repeat(MiB));
    expect(snakeCase('A'.repeat(MiB) + 'b')).toBe('a'.repeat(MiB - 1) + '_ab');
  });
});
