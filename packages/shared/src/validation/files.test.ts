import { describe, expect, it } from 'vitest';
import {
  chmodSchema,
  createDirectorySchema,
  moveFilesSchema,
  newFileSchema,
  renameFileSchema,
} from './files.ts';

const errorsOf = (schema: { safeParse: (v: unknown) => unknown }, value: unknown): string[] => {
  const result = schema.safeParse(value) as
    { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('file manager schemas', () => {
  it.each([
    [createDirectorySchema, { name: 'plugins' }, []],
    [createDirectorySchema, { name: 'a/b' }, []],
    [createDirectorySchema, { name: '' }, ['name: A valid directory name must be provided.']],
    [createDirectorySchema, { name: '   ' }, ['name: A valid directory name must be provided.']],
    [renameFileSchema, { name: 'server.properties' }, []],
    [renameFileSchema, { name: '' }, ['name: A new name must be provided.']],
    [
      renameFileSchema,
      { name: 'a/b' },
      ['name: A name cannot contain a slash. Use Move to put the file in another folder.'],
    ],
    [newFileSchema, { name: 'config.yml' }, []],
    [newFileSchema, { name: 'conf/app.yml' }, []],
    [newFileSchema, { name: '' }, ['name: A file name must be provided.']],
    [newFileSchema, { name: '  ' }, ['name: A file name must be provided.']],
    [moveFilesSchema, { destination: '/backups' }, []],
    [moveFilesSchema, { destination: ' ' }, ['destination: A destination folder must be provided.']],
    [chmodSchema, { mode: '644' }, []],
    [chmodSchema, { mode: '0755' }, []],
    [chmodSchema, { mode: ' 700 ' }, []],
    [
      chmodSchema,
      { mode: '888' },
      ['mode: Permissions are three or four digits from 0 to 7, such as 644 or 0755.'],
    ],
    [
      chmodSchema,
      { mode: '75' },
      ['mode: Permissions are three or four digits from 0 to 7, such as 644 or 0755.'],
    ],
    [
      chmodSchema,
      { mode: 'rwx' },
      ['mode: Permissions are three or four digits from 0 to 7, such as 644 or 0755.'],
    ],
    [
      chmodSchema,
      { mode: '07555' },
      ['mode: Permissions are three or four digits from 0 to 7, such as 644 or 0755.'],
    ],
  ] as const)('%#: %j', (schema, value, errors) => {
    expect(errorsOf(schema, value)).toEqual(errors);
  });

  it('trims what it hands on', () => {
    expect(createDirectorySchema.parse({ name: ' logs ' }).name).toBe('logs');
    expect(chmodSchema.parse({ mode: ' 644 ' }).mode).toBe('644');
  });
});
