import { describe, expect, it } from 'vitest';
import { renameServerSchema } from './server.ts';

const errorsOf = (value: unknown) => {
  const result = renameServerSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('renameServerSchema', () => {
  it.each([
    [{ name: 'Survival', description: '' }, []],
    [{ name: '  Survival  ', description: 'x' }, []],
    [{ name: 'x'.repeat(191), description: '' }, []],
    [{ name: '', description: '' }, ['name: A server name must be provided.']],
    [{ name: '   ', description: '' }, ['name: A server name must be provided.']],
    [{ name: 'x'.repeat(192), description: '' }, ['name: The server name must not exceed 191 characters.']],
  ])('%j → %j', (value, errors) => {
    expect(errorsOf(value)).toEqual(errors);
  });

  it('trims the name it hands on', () => {
    expect(renameServerSchema.parse({ name: ' Box ', description: '' }).name).toBe('Box');
  });
});
