import { promisify } from 'node:util';
import zlib from 'node:zlib';

const gzip = promisify(zlib.gzip);

/** Bytes of input per gzip member. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * gzip compression spread over the libuv thread pool: the input is cut into fixed-size chunks,
 * each compressed as an independent gzip member (zlib's async calls run on the pool, so several
 * at once use several cores), and the members are handed to `sink` in input order. Concatenated
 * members are one valid gzip stream (RFC 1952 §2.2), so the result is a plain `.tar.gz`.
 *
 * Memory is bounded: at most `inFlight` chunks are being compressed or waiting for their turn;
 * `write` waits (backpressure) while that many are pending.
 */
export class ParallelGzip {
  private readonly pending: Promise<Buffer>[] = [];
  private parts: Buffer[] = [];
  private buffered = 0;

  constructor(
    private readonly level: number,
    private readonly inFlight: number,
    private readonly sink: (member: Buffer) => Promise<void>,
    private readonly chunkBytes = CHUNK_BYTES,
  ) {}

  async write(data: Buffer): Promise<void> {
    this.parts.push(data);
    this.buffered += data.length;
    while (this.buffered >= this.chunkBytes) {
      const all = Buffer.concat(this.parts, this.buffered);
      const piece = all.subarray(0, this.chunkBytes);
      const rest = all.subarray(this.chunkBytes);
      this.parts = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      await this.submit(piece);
    }
  }

  /** Compress what is left and hand every remaining member to the sink. */
  async end(): Promise<void> {
    if (this.buffered > 0) {
      const last = Buffer.concat(this.parts, this.buffered);
      this.parts = [];
      this.buffered = 0;
      await this.submit(last);
    }
    while (this.pending.length > 0) await this.flushOne();
  }

  private async submit(piece: Buffer): Promise<void> {
    const job = gzip(piece, { level: this.level });
    job.catch(() => undefined); // awaited in order by flushOne; never an unhandled rejection
    this.pending.push(job);
    while (this.pending.length >= this.inFlight) await this.flushOne();
  }

  private async flushOne(): Promise<void> {
    const member = await this.pending.shift()!;
    await this.sink(member);
  }
}
