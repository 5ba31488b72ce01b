import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest } from './http-request.ts';

let server: Server;
let base: string;
const seen: { method?: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, headers: req.headers, body });
      if (req.url === '/redirect') return res.writeHead(302, { location: '/elsewhere' }).end();
      if (req.url === '/slow') return; // never answers
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, ünïcode: 'é' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('httpRequest', () => {
  it('sends method, headers and body, and answers the status and the text', async () => {
    const answer = await httpRequest(`${base}/api/remote/servers`, {
      method: 'POST',
      headers: { Authorization: 'Bearer a.b', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'é' }),
      timeoutMs: 5000,
    });
    expect(answer).toEqual({ status: 200, text: JSON.stringify({ ok: true, ünïcode: 'é' }) });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ method: 'POST', body: '{"name":"é"}' });
    expect(last.headers).toMatchObject({ authorization: 'Bearer a.b', 'content-length': '13' });
  });

  it('answers an error status and a redirect as they are', async () => {
    const get = (path: string) => httpRequest(base + path, { method: 'GET', headers: {}, timeoutMs: 5000 });
    expect((await get('/missing')).status).toBe(404);
    expect((await get('/redirect')).status).toBe(302);
  });

  it('rejects when the panel is unreachable or does not answer in time', async () => {
    await expect(
      httpRequest('http://127.0.0.1:1/', { method: 'GET', headers: {}, timeoutMs: 5000 }),
    ).rejects.toThrow(/ECONNREFUSED/);
    await expect(httpRequest(`${base}/slow`, { method: 'GET', headers: {}, timeoutMs: 200 })).rejects.toThrow(
      'no complete answer within 200 ms',
    );
  });
});
