import { describe, expect, it } from 'vitest';
import { subuserFormSchema } from './subuser-form.ts';
import { filePathError, isNormalisedFolderPath, normaliseFolderPath } from './subusers.ts';

const errorsOf = (value: unknown) => {
  const result = subuserFormSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('subuserFormSchema', () => {
  it.each([
    [{ email: 'a@example.com', permissions: [] }, []],
    [{ email: ' a@example.com ', permissions: ['control.console'], filePaths: ['/plugins'] }, []],
    [{ email: '', permissions: [] }, ['email: A valid email address must be provided.']],
    [{ email: 'not-an-email', permissions: [] }, ['email: A valid email address must be provided.']],
    [
      { email: `${'a'.repeat(180)}@example.com`, permissions: [] },
      ['email: Email addresses must not exceed 191 characters.'],
    ],
    [
      { email: 'a@example.com', permissions: [], filePaths: ['/ok', 'plugins', '/a/../b'] },
      [
        'filePaths.1: A folder must be a path from the server root, such as /plugins: it starts with a slash, has no empty, "." or ".." parts and does not end with a slash.',
        'filePaths.2: A folder must be a path from the server root, such as /plugins: it starts with a slash, has no empty, "." or ".." parts and does not end with a slash.',
      ],
    ],
    [
      { email: 'a@example.com', permissions: [], filePaths: Array.from({ length: 21 }, (_, i) => `/d${i}`) },
      ['filePaths: A user can be limited to at most 20 folders.'],
    ],
  ])('%j → %j', (value, errors) => {
    expect(errorsOf(value)).toEqual(errors);
  });
});

describe('folder paths', () => {
  it.each([
    ['/', true],
    ['/plugins', true],
    ['/world/region', true],
    ['/.config', true],
    ['plugins', false],
    ['/plugins/', false],
    ['//plugins', false],
    ['/a/./b', false],
    ['/a/..', false],
    ['/a\\b', false],
    ['/a\0b', false],
    ['', false],
  ])('%j normalised: %s', (path, ok) => {
    expect(isNormalisedFolderPath(path)).toBe(ok);
  });

  it('refuses entries longer than 255 characters and non-strings', () => {
    expect(filePathError(`/${'a'.repeat(254)}`)).toBeNull();
    expect(filePathError(`/${'a'.repeat(255)}`)).toBe('A folder path must not exceed 255 characters.');
    expect(filePathError(3)).not.toBeNull();
  });

  it.each([
    ['plugins/', '/plugins'],
    [' /world//nether ', '/world/nether'],
    ['./a/./b', '/a/b'],
    ['', '/'],
    ['/a/../b', null],
  ])('normalises %j to %j', (input, output) => {
    expect(normaliseFolderPath(input)).toBe(output);
  });
});
