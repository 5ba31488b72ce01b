const MIB = 1024 * 1024;

/** What one upload request may carry. */
export interface BatchLimits {
  maxFiles: number;
  /** Bytes of one request, multipart framing included (see PART_OVERHEAD). */
  maxBytes: number;
}

/**
 * Half of the daemon's defaults (`api.upload_max_files` 100, `api.upload_request_limit` 1024 MiB,
 * docs/daemon.md "Request limits"): a node whose limits were lowered somewhat still takes every
 * batch, and a batch that fails (network drop, full disk) loses at most 512 MiB of sending while
 * the batches before it stay uploaded. Smaller batches would only add requests: each needs its
 * own signed URL from the panel.
 */
export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxFiles: 50, maxBytes: 512 * MIB };

/**
 * Bytes a file costs in a multipart body besides its content (boundary, Content-Disposition with
 * the name, Content-Type): the daemon counts the whole body against its request limit. Generous on
 * purpose: names are at most 255 bytes.
 */
export const PART_OVERHEAD = 1024;

/**
 * Splits files (given by size, in the order chosen) into consecutive batches of at most
 * `maxFiles` files and `maxBytes` bytes, keeping that order. A file too large for any batch goes
 * alone: the daemon lets a request be as large as its per-file limit, so whether it fits is the
 * daemon's to say, for that file only. Answers the indices of each batch.
 */
export function planBatches(
  sizes: readonly number[],
  limits: BatchLimits = DEFAULT_BATCH_LIMITS,
): number[][] {
  const maxFiles = Math.max(1, Math.floor(limits.maxFiles));
  const batches: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  sizes.forEach((size, index) => {
    const cost = size + PART_OVERHEAD;
    if (current.length > 0 && (current.length >= maxFiles || bytes + cost > limits.maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(index);
    bytes += cost;
  });
  if (current.length > 0) batches.push(current);
  return batches;
}

/** A limit the daemon stated when it refused a whole request (it wrote nothing). */
export type LearnedLimit = { maxFiles: number } | { maxBytes: number } | { fileBytes: number };

/**
 * Reads the daemon's refusals (apps/daemon/src/http/multipart-upload.ts, UPLOAD) for the limit
 * they state, so that a node configured below DEFAULT_BATCH_LIMITS still takes the upload: the
 * remaining files are planned again within it. Null for any other error.
 */
export function learnLimit(message: string): LearnedLimit | null {
  const files = /may contain at most (\d+) files/.exec(message);
  if (files) return { maxFiles: Number(files[1]) };
  const request = /maximum of (\d+(?:\.\d+)?) MB per request/.exec(message);
  if (request) return { maxBytes: Number(request[1]) * MIB };
  const file = /maximum file upload size of (\d+(?:\.\d+)?) MB/.exec(message);
  if (file) return { fileBytes: Number(file[1]) * MIB };
  return null;
}
