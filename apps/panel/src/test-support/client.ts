import { expect } from 'vitest';

/**
 * A small HTTP client that behaves like the web app: it keeps cookies, echoes the XSRF-TOKEN cookie
 * in X-XSRF-TOKEN and sends the JSON headers. `bearer` switches it to API-key authentication.
 */
export interface Res<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** The last host number TestClient.fromNewIp gave out. */
let forwardedSeq = 0;

export class TestClient {
  readonly cookies = new Map<string, string>();
  bearer: string | null = null;
  /** set false to leave out the XSRF header (to test the refusal) */
  sendXsrf = true;
  extraHeaders: Record<string, string> = {};

  constructor(readonly base: string) {}

  static withKey(base: string, token: string): TestClient {
    const c = new TestClient(base);
    c.bearer = token;
    return c;
  }

  /**
   * A client whose requests come from an address of their own (198.51.100.n in X-Forwarded-For;
   * the panel must trust the loopback proxy), so one test's per-address limits never reach another.
   */
  static fromNewIp(base: string): TestClient {
    forwardedSeq += 1;
    const c = new TestClient(base);
    c.extraHeaders['x-forwarded-for'] = `198.51.100.${forwardedSeq}`;
    return c;
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    raw?: string,
    contentType = 'application/json',
  ): Promise<Res<T>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      ...this.extraHeaders,
    };
    if (body !== undefined || raw !== undefined) headers['content-type'] = contentType;
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (this.sendXsrf && xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const res = await fetch(this.base + path, {
      method,
      headers,
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body ?? {});
  }
  /** A body sent as is, with its own content type (file writes). */
  postRaw<T = any>(path: string, raw: string, contentType = 'text/plain') {
    return this.request<T>('POST', path, undefined, raw, contentType);
  }
  delete<T = any>(path: string, body?: unknown) {
    return this.request<T>('DELETE', path, body);
  }

  /** GET /sanctum/csrf-cookie then POST /auth/login; returns the login response. */
  async login(user: string, password: string) {
    await this.get('/sanctum/csrf-cookie');
    return this.post('/auth/login', { user, password });
  }
}

/** The `errors[0]` of an error body. */
export function firstError(res: Res): { code: string; status: string; detail: string; meta?: any } {
  return (res.body as { errors: { code: string; status: string; detail: string; meta?: any }[] }).errors[0]!;
}

/**
 * Asserts an error answer in the reference's format: the HTTP status and the first error's code,
 * status and detail (the body's text is the message when the status is wrong).
 */
export function expectError(res: Res, status: number, code: string, detail: string): void {
  expect(res.status, res.text).toBe(status);
  expect(firstError(res)).toEqual({ code, status: String(status), detail });
}
