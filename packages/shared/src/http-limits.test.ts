import { describe, expect, it } from 'vitest';
import { jsonTooDeep } from './http-limits.ts';

describe('jsonTooDeep', () => {
  const nest = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;

  it('counts arrays and objects, up to the limit inclusive', () => {
    expect(jsonTooDeep(nest(3), 3)).toBe(false);
    expect(jsonTooDeep(nest(4), 3)).toBe(true);
    expect(jsonTooDeep('{"a":{"b":{"c":[1]}}}', 3)).toBe(true);
    expect(jsonTooDeep('[[1],[2],[3],{"x":[4]}]', 3)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes and backslashes included', () => {
    expect(jsonTooDeep(JSON.stringify({ s: '[[[[[[' }), 2)).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ s: 'say \\"[[[[' }), 2)).toBe(false);
    // The string ends after an escaped backslash: the brackets after it count.
    expect(jsonTooDeep(`["\\\\",${nest(3)}]`, 3)).toBe(true);
  });

  it('judges unbalanced and invalid text without parsing it', () => {
    expect(jsonTooDeep('['.repeat(1_000_000))).toBe(true);
    expect(jsonTooDeep(']]]]{')).toBe(false);
  });
});
