import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, lineAndColumn } from './json-position.ts';

describe('jsonErrorOffset', () => {
  it.each([
    ['{"a": 1}', null],
    ['  [1, -2.5e3, "x\\u00e9", true, false, null, {}]  ', null],
    ['{\n  "a": }', 9],
    ['{', 1],
    ['{"a": 1,}', 8],
    ['[1 2]', 3],
    ['"tab\there"', 4],
    ['tru', 3],
    ['{} x', 3],
    ['', 0],
  ])('%j → %j', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  it('agrees with JSON.parse on whether text is valid', () => {
    const samples = [
      '{"a":[1,2,{"b":null}]}',
      '[01]',
      '1.',
      '-',
      '"\\x"',
      '{"a" 1}',
      '[,]',
      '{"a":1}}',
      '"\\"\\/"',
      '1e5',
    ];
    for (const text of samples) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(jsonErrorOffset(text) === null, text).toBe(valid);
    }
  });
});

describe('lineAndColumn', () => {
  it('counts from 1', () => {
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn('ab', 0)).toEqual({ line: 1, column: 1 });
  });
});
