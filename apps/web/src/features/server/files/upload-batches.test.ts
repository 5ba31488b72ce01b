import { describe, expect, it } from 'vitest';
import { DEFAULT_BATCH_LIMITS, PART_OVERHEAD, learnLimit, planBatches } from './upload-batches.ts';

const MIB = 1024 * 1024;
const sizesOf = (batches: number[][], sizes: number[]) => batches.map((b) => b.map((i) => sizes[i]));

describe('planBatches', () => {
  it('keeps 150 small files under the daemon limit of 100 files per request', () => {
    const sizes = Array.from({ length: 150 }, () => 10);
    const batches = planBatches(sizes);
    expect(batches.map((b) => b.length)).toEqual([50, 50, 50]);
    // Every file once, in the order chosen.
    expect(batches.flat()).toEqual(sizes.map((_, i) => i));
  });

  it('keeps 2 GiB under the daemon limit of 1024 MiB per request', () => {
    const sizes = Array.from({ length: 20 }, () => 100 * MIB);
    const batches = planBatches(sizes);
    for (const batch of batches) {
      const bytes = batch.reduce((sum, i) => sum + sizes[i]! + PART_OVERHEAD, 0);
      expect(bytes).toBeLessThanOrEqual(DEFAULT_BATCH_LIMITS.maxBytes);
    }
    expect(batches.map((b) => b.length)).toEqual([5, 5, 5, 5]);
  });

  it('counts the multipart framing of each file against the byte budget', () => {
    const limits = { maxFiles: 10, maxBytes: 2 * (100 + PART_OVERHEAD) };
    expect(planBatches([100, 100, 100], limits)).toEqual([[0, 1], [2]]);
    expect(planBatches([100, 101, 100], limits)).toEqual([[0], [1], [2]]);
  });

  it('sends a file larger than the batch budget alone and goes on after it', () => {
    const sizes = [MIB, 900 * MIB, MIB, MIB];
    expect(sizesOf(planBatches(sizes), sizes)).toEqual([[MIB], [900 * MIB], [MIB, MIB]]);
  });

  it('answers nothing for nothing and one batch for a few files', () => {
    expect(planBatches([])).toEqual([]);
    expect(planBatches([0, 0, 5])).toEqual([[0, 1, 2]]);
  });

  it('follows lowered limits, one file per batch at least', () => {
    expect(planBatches([1, 1, 1, 1, 1], { maxFiles: 2, maxBytes: MIB })).toEqual([[0, 1], [2, 3], [4]]);
    expect(planBatches([1, 1], { maxFiles: 0, maxBytes: MIB })).toEqual([[0], [1]]);
  });
});

describe('learnLimit', () => {
  it("reads the limit out of each of the daemon's refusals", () => {
    expect(learnLimit('An upload may contain at most 5 files.')).toEqual({ maxFiles: 5 });
    expect(learnLimit('The upload is larger than the maximum of 64 MB per request.')).toEqual({
      maxBytes: 64 * MIB,
    });
    expect(learnLimit('File big.bin is larger than the maximum file upload size of 100 MB.')).toEqual({
      fileBytes: 100 * MIB,
    });
  });

  it('learns nothing from other errors', () => {
    expect(learnLimit('There is not enough space available.')).toBeNull();
    expect(learnLimit('Network Error')).toBeNull();
  });
});
