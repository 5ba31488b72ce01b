import { HttpError, httpErrorToHuman } from '../../../api/errors.ts';
import { DEFAULT_BATCH_LIMITS, learnLimit, planBatches, type BatchLimits } from './upload-batches.ts';

/** Files that did not arrive, and why: the server's words, or the per-file limit it stated. */
export type UploadFailure = { names: string[]; reason: string } | { names: string[]; tooLargeMb: number };

export interface BatchedUpload {
  files: readonly File[];
  /** A fresh signed URL: each is good for one request. */
  getUrl: () => Promise<string>;
  /** One request with `files`; reports the bytes of the request sent so far. */
  send: (url: string, files: File[], onProgress: (loaded: number, total: number) => void) => Promise<void>;
  /** Bytes of file content done so far, out of the sum of all the sizes. */
  onProgress: (done: number) => void;
  signal: AbortSignal;
  limits?: BatchLimits;
}

const sum = (files: readonly File[]) => files.reduce((total, f) => total + f.size, 0);

/**
 * Uploads `files` one batch after another, each batch within the daemon's per-request limits and
 * with its own signed URL. The daemon writes all of a request or none of it, so a refused batch
 * leaves the batches before it in place and the next ones still go. A refusal stating a limit
 * lower than the plan (a node configured below the defaults) plans the files not yet sent again
 * within it instead of failing them. Stops quietly once `signal` aborts.
 */
export async function uploadInBatches(upload: BatchedUpload): Promise<UploadFailure[]> {
  const { signal } = upload;
  const limits = { ...(upload.limits ?? DEFAULT_BATCH_LIMITS) };
  const failures: UploadFailure[] = [];
  let pending = [...upload.files];
  let done = 0;
  const settle = (files: File[]) => {
    const sent = new Set(files);
    pending = pending.filter((f) => !sent.has(f));
    done += sum(files);
    upload.onProgress(done);
  };

  while (pending.length > 0 && !signal.aborted) {
    // Batches keep the order of `pending`, so the first one is a prefix of it.
    const first = planBatches(
      pending.map((f) => f.size),
      limits,
    )[0]!;
    const batch = pending.slice(0, first.length);
    const bytes = sum(batch);
    try {
      const url = await upload.getUrl();
      if (signal.aborted) break;
      await upload.send(url, batch, (loaded, total) =>
        upload.onProgress(done + (total > 0 ? Math.round(bytes * Math.min(1, loaded / total)) : 0)),
      );
      settle(batch);
    } catch (error) {
      if (signal.aborted) break;
      const reason = httpErrorToHuman(error);
      const refused = error instanceof HttpError && (error.status === 400 || error.status === 413);
      const learned = refused ? learnLimit(reason) : null;
      if (learned && 'maxFiles' in learned && learned.maxFiles < batch.length) {
        limits.maxFiles = learned.maxFiles;
        continue;
      }
      if (learned && 'maxBytes' in learned && learned.maxBytes < limits.maxBytes && batch.length > 1) {
        limits.maxBytes = learned.maxBytes;
        continue;
      }
      if (learned && 'fileBytes' in learned) {
        // Every file over the limit, in this batch or a later one, fails now without being sent;
        // the rest of the batch goes again.
        const tooLarge = pending.filter((f) => f.size > learned.fileBytes);
        if (batch.some((f) => tooLarge.includes(f))) {
          failures.push({ names: tooLarge.map((f) => f.name), tooLargeMb: learned.fileBytes / 1024 / 1024 });
          settle(tooLarge);
          continue;
        }
      }
      failures.push({ names: batch.map((f) => f.name), reason });
      settle(batch);
    }
  }
  return failures;
}
