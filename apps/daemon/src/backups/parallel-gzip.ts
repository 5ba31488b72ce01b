import os from 'node:os';
import { Worker } from 'node:worker_threads';

/** Bytes of input per gzip member. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * The compressing thread's code, plain CommonJS given as text (`eval`): it loads nothing of ours,
 * so it runs the same under tsx, the built daemon and the tests. A chunk arrives with its buffer
 * transferred; its gzip member goes back, and so does the input buffer, to be filled again (no
 * allocation, no garbage per chunk). The output chunk size fits a whole member, so zlib writes it
 * once instead of in 16 KiB pieces joined afterwards.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
parentPort.on('message', ({ id, input, length }) => {
  const data = new Uint8Array(input, 0, length);
  const out = zlib.gzipSync(data, { ...workerData.params, chunkSize: length + 65536 });
  const own = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength;
  parentPort.postMessage({ id, out, input }, own ? [out.buffer, input] : [input]);
});
`;

/**
 * zlib's parameters for `level`. At the fast levels (1–3) a 4 KiB window (windowBits 12) and the
 * largest hash (memLevel 9): with Node's zlib (Chromium's) this compresses a backup in about 60 %
 * of the CPU time of the defaults (32 KiB window, memLevel 8), for an archive a few per mille
 * larger or smaller (measured on the benchmark's data, docs/benchmarks.md). A gzip reader's window
 * is always 32 KiB, so any reader takes it. The higher levels keep the defaults: whoever chose
 * them chose size over time.
 */
export function deflateParams(level: number): { level: number; windowBits?: number; memLevel?: number } {
  return level >= 1 && level <= 3 ? { level, windowBits: 12, memLevel: 9 } : { level };
}

interface Job {
  resolve: (member: Buffer) => void;
  reject: (err: Error) => void;
}

/**
 * gzip compression spread over worker threads (one per core): the input is cut into fixed-size
 * chunks, each compressed as an independent gzip member, and the members are handed to `sink` in
 * input order. Concatenated members are one valid gzip stream (RFC 1952 §2.2), so the result is a
 * plain `.tar.gz`.
 *
 * Why workers and not zlib's asynchronous calls: those run on libuv's thread pool (4 threads),
 * which the file reads of the same backup need too; with every pool thread compressing, each
 * open/stat/read of the walk waited behind a megabyte of deflate. Own threads leave the pool to
 * the disk.
 *
 * Memory is bounded: at most `inFlight` chunks are being compressed or waiting for their turn;
 * `write` waits (backpressure) while that many are pending.
 */
export class ParallelGzip {
  private readonly pending: Promise<Buffer>[] = [];
  /** The chunk being filled, and how much of it is. */
  private cur: Buffer;
  private filled = 0;
  /** Input buffers back from the threads, to be filled again. */
  private readonly free: ArrayBuffer[] = [];
  private readonly workers: Worker[] = [];
  private readonly jobs = new Map<number, Job>();
  private nextId = 0;
  private failure: Error | null = null;

  constructor(
    level: number,
    private readonly sink: (member: Buffer) => Promise<void>,
    threads = os.availableParallelism(),
    private readonly chunkBytes = CHUNK_BYTES,
    private readonly inFlight = Math.max(1, threads) * 4 + 1,
  ) {
    this.cur = Buffer.allocUnsafeSlow(chunkBytes);
    for (let i = 0; i < Math.max(1, threads); i++) {
      const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { params: deflateParams(level) } });
      w.on('message', ({ id, out, input }: { id: number; out: Uint8Array; input: ArrayBuffer }) => {
        this.free.push(input);
        const job = this.jobs.get(id);
        this.jobs.delete(id);
        job?.resolve(Buffer.from(out.buffer, out.byteOffset, out.byteLength));
      });
      w.on('error', (err) => this.fail(err));
      w.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`a compression thread stopped (${code})`));
      });
      this.workers.push(w);
    }
  }

  /** Take `data` (copied once, into the chunk being filled; the caller may reuse it at once). */
  async write(data: Buffer): Promise<void> {
    let at = 0;
    while (at < data.length) {
      const n = Math.min(data.length - at, this.chunkBytes - this.filled);
      data.copy(this.cur, this.filled, at, at + n);
      this.filled += n;
      at += n;
      if (this.filled === this.chunkBytes) await this.submit();
    }
  }

  /**
   * Take `size` bytes that `read(buf, offset, length)` puts straight into the chunk being filled
   * (a file's content read from its descriptor: no buffer of its own, no copy). `read` answers the
   * bytes it gave; 0 ends early, and the rest is zeros (a file that shrank meanwhile keeps the size
   * its header announced). Returns the bytes `read` gave.
   */
  async fill(
    size: number,
    read: (buf: Buffer, offset: number, length: number) => Promise<number>,
  ): Promise<number> {
    let left = size;
    let got = 0;
    let ended = false;
    while (left > 0) {
      const n = Math.min(left, this.chunkBytes - this.filled);
      const r = ended ? 0 : await read(this.cur, this.filled, n);
      if (r === 0) {
        ended = true;
        this.cur.fill(0, this.filled, this.filled + n);
      }
      const step = r === 0 ? n : r;
      this.filled += step;
      left -= step;
      got += r;
      if (this.filled === this.chunkBytes) await this.submit();
    }
    return got;
  }

  /** Compress what is left and hand every remaining member to the sink; the threads stop. */
  async end(): Promise<void> {
    try {
      if (this.filled > 0) await this.submit();
      while (this.pending.length > 0) await this.flushOne();
    } finally {
      await this.close();
    }
  }

  /** Stop the threads (also after a failure elsewhere); pending chunks are dropped. */
  async close(): Promise<void> {
    this.fail(new Error('compression stopped'));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const job of this.jobs.values()) job.reject(err);
    this.jobs.clear();
  }

  /** Send the filled chunk (its buffer transferred, not copied) and start a new one. */
  private async submit(): Promise<void> {
    if (this.failure) throw this.failure;
    const input = this.cur.buffer as ArrayBuffer;
    const length = this.filled;
    const reuse = this.free.pop();
    this.cur = reuse ? Buffer.from(reuse) : Buffer.allocUnsafeSlow(this.chunkBytes);
    this.filled = 0;
    const id = this.nextId++;
    const job = new Promise<Buffer>((resolve, reject) => this.jobs.set(id, { resolve, reject }));
    job.catch(() => undefined); // awaited in order by flushOne; never an unhandled rejection
    this.pending.push(job);
    this.workers[id % this.workers.length]!.postMessage({ id, input, length }, [input]);
    while (this.pending.length >= this.inFlight) await this.flushOne();
  }

  private async flushOne(): Promise<void> {
    const member = await this.pending.shift()!;
    await this.sink(member);
  }
}
