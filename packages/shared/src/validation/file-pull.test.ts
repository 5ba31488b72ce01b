import { describe, expect, it } from 'vitest';
import { FILE_PULL_MESSAGES as M, pullFileSchema } from './file-pull.ts';

const problems = (values: { url: string; fileName: string }) => {
  const r = pullFileSchema.safeParse(values);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('pullFileSchema', () => {
  it('needs an http(s) URL and takes an optional plain file name', () => {
    expect(problems({ url: ' https://example.com/a.jar ', fileName: '' })).toEqual([]);
    expect(pullFileSchema.parse({ url: ' http://x.example/ ', fileName: ' b.jar ' })).toEqual({
      url: 'http://x.example/',
      fileName: 'b.jar',
    });
    expect(problems({ url: '  ', fileName: '' })).toEqual([M.urlRequired]);
    expect(problems({ url: 'example.com/a.jar', fileName: '' })).toEqual([M.urlInvalid]);
    expect(problems({ url: 'ftp://example.com/a', fileName: '' })).toEqual([M.urlInvalid]);
    expect(problems({ url: 'https://example.com/a', fileName: 'x/y' })).toEqual([M.fileNameSlash]);
  });
});
