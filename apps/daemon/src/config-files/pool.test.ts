import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PARSER_LIMITS, ParserPool } from './pool.ts';
import type { TransformJob } from './transform.ts';

/** The parser workers on their own: a file's cost stays in a worker that is ended, never the daemon's. */
const job = (parser: string, text: string, replace: TransformJob['replace'] = []): TransformJob => ({
  parser,
  text,
  replace,
  values: {},
});

describe('parser pool', () => {
  const small = new ParserPool({ ...DEFAULT_PARSER_LIMITS, heapMb: 32 });
  afterAll(async () => {
    await small.close();
  });

  it('ends a worker that needs more than its heap, and the next file is rewritten by a fresh one', async () => {
    // 200,000 flow-sequence items: about 140 MB of parser objects for 1 MiB of text.
    const flow = '[' + Array.from({ length: 200_000 }, (_, i) => String(i)).join(',') + ']\n';
    expect(await small.run(job('yaml', flow))).toEqual({
      ok: false,
      limit: 'memory',
      message: 'needed more than 32 MiB',
    });
    expect(await small.run(job('properties', 'a=1\n', [{ match: 'a', replaceWith: '2', ifValue: '' }]))).toEqual({
      ok: true,
      text: 'a=2\n',
      ruleErrors: [],
    });
  });

  it('answers a document nested too deep to serialise with a failure, not a crash', async () => {
    const depth = 200_000;
    const out = await small.run(job('xml', '<a>'.repeat(depth) + '</a>'.repeat(depth)));
    expect(out.ok).toBe(false);
  });

  it('reports rule errors and parse errors from the worker', async () => {
    const rule = { match: 'a[3]', replaceWith: 'x', ifValue: '' };
    expect(await small.run(job('json', '{}', [rule]))).toEqual({
      ok: true,
      text: '{}\n',
      ruleErrors: [{ match: 'a[3]', message: 'list element [3] does not exist' }],
    });
    expect(await small.run(job('json', '{', [rule]))).toMatchObject({ ok: false });
  });
});
