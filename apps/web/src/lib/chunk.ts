/** How long an on-demand code chunk may take before it counts as failed (spec §8, §9). */
export const CHUNK_TIMEOUT_MS = 120_000;

export type ChunkFailureKind = 'missing' | 'timeout' | 'error';

export class ChunkLoadError extends Error {
  readonly kind: ChunkFailureKind;
  constructor(kind: ChunkFailureKind, message: string) {
    super(message);
    this.name = 'ChunkLoadError';
    this.kind = kind;
  }
}

/** A dynamic import that could not fetch its file (removed by a deploy, or unreachable). */
function isFetchFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|module script failed|error loading dynamically|failed to fetch/i.test(
    error.message,
  );
}

/** Runs a chunk loader with the 120 s limit; failures become a ChunkLoadError of the right kind. */
export function loadChunk<T>(loader: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError('timeout', `Loading chunk timed out after ${timeoutMs}ms`)),
      timeoutMs,
    );
    loader().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        const message = error instanceof Error ? error.message : String(error);
        reject(new ChunkLoadError(isFetchFailure(error) ? 'missing' : 'error', message));
      },
    );
  });
}
