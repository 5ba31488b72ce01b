import { describe, expect, it } from 'vitest';
import { formatBytesShort } from '../../lib/shared.ts';
import { byteSplits } from './axisSplits.ts';

describe('byteSplits', () => {
  it.each([
    [0, ['0 B']],
    [1.1 * 1024, ['0 B', '512 B', '1 kB']],
    [1.1 * 1024 * 1024, ['0 B', '512 kB', '1 MB']],
    [8.3 * 1024 * 1024, ['0 B', '2.5 MB', '5 MB', '7.5 MB']],
    [300 * 1024 * 1024, ['0 B', '100 MB', '200 MB', '300 MB']],
    [1.5 * 1024 ** 3, ['0 B', '512 MB', '1 GB', '1.5 GB']],
  ])('an axis up to %d bytes is marked at %j', (max, labels) => {
    expect(byteSplits(max).map(formatBytesShort)).toEqual(labels);
  });

  it('never gives more than five ticks', () => {
    for (let max = 1; max < 1024 ** 4; max *= 1.37) expect(byteSplits(max).length).toBeLessThanOrEqual(5);
  });
});
