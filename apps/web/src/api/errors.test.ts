import { describe, expect, it } from 'vitest';
import { HttpError, httpErrorToHuman } from './errors.ts';

describe('httpErrorToHuman', () => {
  it('prefers errors[0].detail', () => {
    const error = new HttpError('Request failed with status code 400', 400, {
      errors: [
        {
          code: 'DisplayException',
          status: '400',
          detail: 'No account matching those credentials could be found.',
        },
        { detail: 'second' },
      ],
      error: 'ignored',
    });
    expect(httpErrorToHuman(error)).toBe('No account matching those credentials could be found.');
    expect(error.code).toBe('DisplayException');
  });
  it('falls back to a string error field', () => {
    expect(
      httpErrorToHuman(
        new HttpError('Request failed with status code 502', 502, { error: 'daemon said no' }),
      ),
    ).toBe('daemon said no');
  });
  it('ignores a non-string error field and uses the client message', () => {
    expect(
      httpErrorToHuman(new HttpError('Request failed with status code 500', 500, { error: { x: 1 } })),
    ).toBe('Request failed with status code 500');
  });
  it("uses the client's own messages when nothing came back", () => {
    expect(httpErrorToHuman(new HttpError('Network Error', null, undefined))).toBe('Network Error');
    expect(httpErrorToHuman(new HttpError('Request aborted', null, undefined))).toBe('Request aborted');
    expect(httpErrorToHuman(new HttpError('timeout of 20000ms exceeded', null, undefined))).toBe(
      'timeout of 20000ms exceeded',
    );
  });
  it('handles plain errors and non-errors', () => {
    expect(httpErrorToHuman(new Error('boom'))).toBe('boom');
    expect(httpErrorToHuman('text')).toBe('text');
  });
});
