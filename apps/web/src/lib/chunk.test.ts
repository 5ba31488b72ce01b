import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_TIMEOUT_MS, ChunkLoadError, loadChunk } from './chunk.ts';

describe('loadChunk', () => {
  afterEach(() => vi.useRealTimers());

  it('resolves with the module', async () => {
    await expect(loadChunk(() => Promise.resolve({ a: 1 }))).resolves.toEqual({ a: 1 });
  });
  it('fails with kind timeout after 120 s', async () => {
    vi.useFakeTimers();
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    const pending = loadChunk(() => new Promise(() => undefined));
    const settled = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(119_999);
    let done = false;
    void settled.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = (await settled) as ChunkLoadError;
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error.kind).toBe('timeout');
  });
  it('fails with kind missing when the file cannot be fetched', async () => {
    const error = (await loadChunk(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')),
    ).catch((e: unknown) => e)) as ChunkLoadError;
    expect(error.kind).toBe('missing');
  });
  it('fails with kind error otherwise', async () => {
    const error = (await loadChunk(() => Promise.reject(new Error('boom'))).catch(
      (e: unknown) => e,
    )) as ChunkLoadError;
    expect(error.kind).toBe('error');
    expect(error.message).toBe('boom');
  });
});
