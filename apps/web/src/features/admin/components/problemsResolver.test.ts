import { describe, expect, it } from 'vitest';
import { problemsResolver } from './problemsResolver.ts';

interface Values {
  name: string;
  limits: { memory: string };
  environment: Record<string, string>;
}

const resolver = problemsResolver<Values>(
  (v) => ({
    name: v.name === '' ? 'Give it a name.' : undefined,
    'limits.memory': v.limits.memory === '' ? 'Enter the memory limit.' : undefined,
    ...(v.environment.PORT === '' ? { 'environment.PORT': 'The port is required.' } : {}),
  }),
  (v) => ({ ...v, name: v.name.trim() }),
);
const run = (values: Values) => resolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('problemsResolver', () => {
  it('gives nested fields their errors as react-hook-form reads them (limits.memory → limits: { memory })', async () => {
    const result = await run({ name: ' ', limits: { memory: '' }, environment: { PORT: '' } });
    expect(result.values).toEqual({});
    expect(result.errors).toEqual({
      name: { type: 'validate', message: 'Give it a name.' },
      limits: { memory: { type: 'validate', message: 'Enter the memory limit.' } },
      environment: { PORT: { type: 'validate', message: 'The port is required.' } },
    });
  });

  it('hands the tidied values on when nothing is wrong', async () => {
    const result = await run({ name: ' web ', limits: { memory: '512' }, environment: { PORT: '25565' } });
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ name: 'web', limits: { memory: '512' }, environment: { PORT: '25565' } });
  });
});
