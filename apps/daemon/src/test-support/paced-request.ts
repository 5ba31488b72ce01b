import http from 'node:http';
import { once } from 'node:events';

export interface PacedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * An HTTP request whose body the test writes piece by piece (each write waits until the socket
 * took it), so a test can look at the server's disk while the upload is still running, stop
 * sending once the server answered, or drop the connection half-way.
 */
export class PacedRequest {
  readonly response: Promise<PacedResponse>;
  /** Set once the response head arrived. */
  answered = false;
  sent = 0;
  private readonly req: http.ClientRequest;

  constructor(url: string, method: string, headers: Record<string, string>) {
    this.req = http.request(url, { method, headers });
    this.response = new Promise((resolve, reject) => {
      this.req.on('response', (res) => {
        this.answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      });
      this.req.on('error', (err) => {
        // A server that answered and closed may reset the rest of the upload: the answer counts.
        if (!this.answered) reject(err);
      });
    });
    this.response.catch(() => undefined); // observed by the test when it awaits it
  }

  /** Write one piece; false (nothing written) once the server has answered. */
  async write(chunk: Buffer | string): Promise<boolean> {
    if (this.answered || this.req.destroyed) return false;
    const flushed = this.req.write(chunk);
    this.sent += Buffer.byteLength(chunk);
    if (!flushed) await Promise.race([once(this.req, 'drain'), this.response.catch(() => undefined)]);
    return true;
  }

  /** Write `total` bytes of `fill` in 64 KiB pieces, stopping early when the server answers. */
  async writeBytes(total: number, fill = 0x61): Promise<void> {
    const piece = Buffer.alloc(64 * 1024, fill);
    for (let left = total; left > 0; left -= piece.length) {
      if (!(await this.write(left >= piece.length ? piece : piece.subarray(0, left)))) return;
    }
  }

  async end(chunk?: Buffer | string): Promise<PacedResponse> {
    if (!this.answered && !this.req.destroyed) this.req.end(chunk);
    return this.response;
  }

  /** Drop the connection without finishing the body (a client that went away). */
  abort(): void {
    this.req.destroy();
  }
}

/** The multipart framing of a `files` upload, written around paced file bodies. */
export const multipart = {
  boundary: 'talon-test-boundary',
  contentType: 'multipart/form-data; boundary=talon-test-boundary',
  fileHead(name: string, first = true): string {
    return (
      (first ? '' : '\r\n') +
      `--talon-test-boundary\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n'
    );
  },
  close: '\r\n--talon-test-boundary--\r\n',
};
