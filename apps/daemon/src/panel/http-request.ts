import http from 'node:http';
import https from 'node:https';

export interface HttpAnswer {
  status: number;
  text: string;
}

/**
 * One HTTP request with node:http(s), the body read as text. The daemon's calls to the panel go
 * through here rather than `fetch`: fetch loads undici (its own HTTP stack, with a WebAssembly
 * parser) into the process, about 15–30 MB of resident memory for a handful of JSON calls
 * (docs/benchmarks.md, daemon-rss). Redirects are not followed: a 3xx is just an answer.
 * Rejects on network errors and when the whole exchange takes longer than `timeoutMs`.
 */
export function httpRequest(
  url: string,
  opts: { method: string; headers: Record<string, string>; body?: string; timeoutMs: number },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const headers = { ...opts.headers };
    if (opts.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(opts.body));
    const req = client.request(target, { method: opts.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`no complete answer within ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(opts.body);
  });
}
