import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import type { StagedWrite } from '../fs/server-files.ts';
import { ServerError } from '../servers/errors.ts';

const MIB = 1024 * 1024;

export const UPLOAD = {
  notMultipart: 'Failed to get multipart form data from request.',
  fileTooLarge: (name: string, mb: number) =>
    `File ${name} is larger than the maximum file upload size of ${mb} MB.`,
  tooManyFiles: (n: number) => `An upload may contain at most ${n} files.`,
  requestTooLarge: (mb: number) => `The upload is larger than the maximum of ${mb} MB per request.`,
  interrupted: 'The upload ended before all of it arrived.',
};

export interface UploadLimits {
  /** MiB per file (`api.upload_limit`). */
  fileMb: number;
  /** `files` parts per request (`api.upload_max_files`). */
  maxFiles: number;
  /** MiB of the whole request body (`api.upload_request_limit`). */
  requestMb: number;
}

/**
 * Where a `files` part goes: a staged file for its name, or a thrown refusal (denylist, bad name).
 * Its `write` may refuse a piece too (the disk quota).
 */
export type Stage = (filename: string) => Promise<StagedWrite>;

/**
 * Read the `files` parts of a multipart body straight to staged files, one piece at a time (the
 * socket is paused while a piece is written, so nothing accumulates in memory). Every limit is
 * checked as the bytes arrive: the first refusal (or a client that goes away) stops reading and
 * removes every staged file of the request, so a refused upload writes nothing. On success the
 * caller owns the staged files and commits them.
 */
export async function receiveUploads(
  req: FastifyRequest,
  limits: UploadLimits,
  stage: Stage,
): Promise<StagedWrite[]> {
  let bb: busboy.Busboy;
  try {
    // Text fields are read into memory by busboy: keep them small.
    bb = busboy({ headers: req.headers, limits: { fieldSize: 64 * 1024, fields: 100 } });
  } catch {
    throw new ServerError(UPLOAD.notMultipart, 400);
  }
  const raw = req.raw;
  const staged: StagedWrite[] = [];
  let failure: unknown = null;
  let current: Readable | null = null;
  let work: Promise<void> = Promise.resolve();
  let count = 0;
  let received = 0;
  let settle!: () => void;
  const parsed = new Promise<void>((resolve) => (settle = resolve));

  const fail = (err: unknown): void => {
    if (failure !== null) return;
    failure = err;
    raw.unpipe(bb);
    // Ends the part being written (its loop throws); the reason stays in `failure`.
    current?.destroy();
    settle();
  };

  const requestBytes = Math.max(limits.requestMb, limits.fileMb) * MIB;
  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    if (received > requestBytes) fail(new ServerError(UPLOAD.requestTooLarge(limits.requestMb), 413));
  };
  const onClose = (): void => {
    if (!raw.complete) fail(new ServerError(UPLOAD.interrupted, 400));
  };
  raw.on('data', onData);
  raw.on('close', onClose);

  bb.on('file', (field, stream, info) => {
    if (failure !== null || field !== 'files') {
      stream.resume();
      return;
    }
    if (++count > limits.maxFiles) {
      stream.resume();
      fail(new ServerError(UPLOAD.tooManyFiles(limits.maxFiles), 400));
      return;
    }
    const name = info.filename ?? '';
    // Parts arrive one after another; each is written completely before the next is read.
    work = work
      .then(async () => {
        current = stream;
        if (failure !== null) throw failure;
        const file = await stage(name);
        staged.push(file);
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          if (file.size + chunk.length > limits.fileMb * MIB) {
            throw new ServerError(UPLOAD.fileTooLarge(name, limits.fileMb), 400);
          }
          await file.write(chunk);
        }
        await file.close();
        current = null;
      })
      .catch((err: unknown) => {
        stream.resume();
        fail(err);
      });
  });
  bb.on('error', () => fail(new ServerError(UPLOAD.notMultipart, 400)));
  bb.on('close', () => settle());
  raw.pipe(bb);

  try {
    await parsed;
    await work;
  } finally {
    raw.off('data', onData);
    raw.off('close', onClose);
  }
  if (failure !== null) {
    await Promise.all(staged.map((f) => f.discard()));
    // A body still arriving after a refusal is thrown away, not parsed.
    raw.resume();
    throw failure;
  }
  return staged;
}
