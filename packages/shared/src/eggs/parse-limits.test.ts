// Issue 23 item 9: a 9 MB YAML egg ran the panel out of heap, and deep or aliased YAML costs the
// parser far more than its size. Egg text is measured and scanned before any parser sees it; each
// refusal is one error in words, as for any other bad file.
import { describe, expect, it } from 'vitest';
import { billionLaughs } from './hostile-eggs.fixture.ts';
import { EGG_FILE_MAX_CHARS, formatEggError, parseEgg } from './index.ts';

const messages = (text: string) => {
  const result = parseEgg(text);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.errors.map(formatEggError);
};

describe('egg file limits, before parsing', () => {
  it('refuses a 9 MB YAML file unread', () => {
    const line = '  key: "a value that repeats until the file is nine megabytes long"\n';
    const text = `meta:\n  version: PTDL_v2\nscripts:\n${line.repeat(Math.ceil(9e6 / line.length))}`;
    expect(messages(text)).toEqual([
      `the file is 8.6 MiB; an egg file may be at most ${EGG_FILE_MAX_CHARS / 1024} KiB`,
    ]);
  });

  it('refuses a JSON text over the cap the same way', () => {
    const text = JSON.stringify({
      meta: { version: 'PTDL_v2' },
      description: 'x'.repeat(EGG_FILE_MAX_CHARS),
    });
    expect(messages(text)).toEqual(['the file is 257 KiB; an egg file may be at most 256 KiB']);
  });

  it('refuses YAML and JSON nested deeper than 64 levels (a flow bomb fills the cap)', () => {
    const depth = EGG_FILE_MAX_CHARS / 2 - 100;
    const yaml = `meta: { version: PTDL_v2 }\nvariables: ${'['.repeat(depth)}x${']'.repeat(depth)}\n`;
    expect(messages(yaml)).toEqual(['the file nests lists or maps more than 64 levels deep']);
    const json = `{"meta": {"version": "PTDL_v2"}, "variables": ${'['.repeat(65)}${']'.repeat(65)}}`;
    expect(messages(json)).toEqual(['the file nests lists or maps more than 64 levels deep']);
  });

  it('does not count brackets in scripts, strings and comments of YAML', () => {
    const text = [
      'meta: { version: PTDL_v2 }',
      'scripts:',
      '  installation:',
      '    script: |',
      `      ${'[ -f x ] && echo "[" '.repeat(100)}`,
      `      echo '${'{'.repeat(100)}'`,
      `# ${'['.repeat(100)}`,
      `description: "${'['.repeat(100)}"`,
    ].join('\n');
    expect(messages(text).join('\n')).not.toMatch(/levels deep|MiB/u);
  });

  it('refuses a billion-laughs alias bomb in words', () => {
    expect(messages(billionLaughs())).toEqual([
      'the file expands YAML aliases too often (more than 100 times): an egg file needs none',
    ]);
  });
});
