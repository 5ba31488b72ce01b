import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../test/render.tsx';
import { HttpError } from './errors.ts';
import { http, parseBody, request, setHttpHooks } from './http.ts';

describe('http client', () => {
  beforeEach(() => setHttpHooks({ onStart: undefined, onEnd: undefined, onError: undefined }));
  afterEach(() => vi.unstubAllGlobals());

  it('sends the JSON headers and X-XSRF-TOKEN from the cookie, URL-decoded', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D%3D; path=/';
    const stub = stubFetch([{ status: 200, body: { ok: true } }]);
    vi.stubGlobal('fetch', stub.fn);
    const res = await http.put('/api/client/account/email', { email: 'a@b.co', password: 'x' });
    expect(res.data).toEqual({ ok: true });
    expect(stub.calls[0]).toMatchObject({
      url: '/api/client/account/email',
      method: 'PUT',
      body: { email: 'a@b.co', password: 'x' },
      headers: {
        'X-Requested-With': 'XMLHttpRequest',
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-XSRF-TOKEN': 'abc==',
      },
    });
  });

  it('falls back to nil without the cookie', async () => {
    const stub = stubFetch([{ status: 204 }]);
    vi.stubGlobal('fetch', stub.fn);
    const res = await http.delete('/api/client/account/two-factor', { params: { password: 'p w' } });
    expect(res.status).toBe(204);
    expect(res.data).toBeUndefined();
    expect(stub.calls[0]!.headers['X-XSRF-TOKEN']).toBe('nil');
    expect(stub.calls[0]!.url).toBe('/api/client/account/two-factor?password=p+w');
  });

  it('parses string bodies as JSON and keeps non-JSON text', () => {
    expect(parseBody('{"a":1}')).toEqual({ a: 1 });
    expect(parseBody('plain')).toBe('plain');
    expect(parseBody('')).toBeUndefined();
  });

  it('rejects non-2xx answers with the body attached', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([{ status: 422, body: { errors: [{ code: 'ValidationException', detail: 'bad' }] } }]).fn,
    );
    const error = await request('POST', '/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(422);
    expect((error as HttpError).code).toBe('ValidationException');
  });

  it('reports a network failure as Network Error', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(http.get('/x')).rejects.toThrow('Network Error');
  });

  it('times out with the axios-style message', async () => {
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    await expect(http.get('/slow', { timeout: 30 })).rejects.toThrow('timeout of 30ms exceeded');
  });

  it('reports a caller abort as Request aborted', async () => {
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const controller = new AbortController();
    const pending = http.get('/slow', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow('Request aborted');
  });

  it('calls the start/end hooks around every request and the error hook on failures', async () => {
    const events: string[] = [];
    setHttpHooks({
      onStart: (url) => events.push(`start ${url}`),
      onEnd: (url) => events.push(`end ${url}`),
      onError: (e) => events.push(`error ${e.status}`),
    });
    vi.stubGlobal(
      'fetch',
      stubFetch([
        { status: 200, body: {} },
        { status: 400, body: {} },
      ]).fn,
    );
    await http.get('/a');
    await http.get('/b').catch(() => undefined);
    expect(events).toEqual(['start /a', 'end /a', 'start /b', 'error 400', 'end /b']);
  });
});
