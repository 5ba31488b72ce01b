import { xsrfToken } from '../lib/cookies.ts';
import { HttpError } from './errors.ts';

/** Request timeout (spec §7, §9). */
export const REQUEST_TIMEOUT_MS = 20_000;

export interface HttpOptions {
  params?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Sent as is with `text/plain` instead of a JSON body (file contents). */
  rawBody?: string;
  /** Keep the answer as text instead of parsing it (file contents may happen to be JSON). */
  asText?: boolean;
  timeout?: number;
  signal?: AbortSignal;
}

export interface HttpResponse<T> {
  status: number;
  data: T;
}

/** Observers of every call: the progress bar and the two-factor redirect hook in here. */
export interface HttpHooks {
  onStart?: (url: string) => void;
  onEnd?: (url: string) => void;
  onError?: (error: HttpError) => void;
}

const hooks: HttpHooks = {};

export function setHttpHooks(next: HttpHooks): void {
  Object.assign(hooks, next);
}

function buildUrl(url: string, params?: HttpOptions['params']): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) search.append(key, String(value));
  }
  const qs = search.toString();
  if (!qs) return url;
  return url + (url.includes('?') ? '&' : '?') + qs;
}

/** Bodies are parsed as JSON when they parse; otherwise the text is kept as it is. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function request<T = unknown>(
  method: string,
  url: string,
  options: HttpOptions = {},
): Promise<HttpResponse<T>> {
  const timeout = options.timeout ?? REQUEST_TIMEOUT_MS;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeout);
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort);

  hooks.onStart?.(url);
  try {
    let response: Response;
    let text: string;
    try {
      response = await fetch(buildUrl(url, options.params), {
        method,
        credentials: 'same-origin',
        signal: controller.signal,
        headers: {
          'X-Requested-With': 'XMLHttpRequest',
          Accept: 'application/json',
          'Content-Type': options.rawBody === undefined ? 'application/json' : 'text/plain',
          'X-XSRF-TOKEN': xsrfToken(document.cookie),
        },
        body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      });
      text = await response.text();
    } catch (cause) {
      const aborted = cause instanceof DOMException && cause.name === 'AbortError';
      const message = timedOut
        ? `timeout of ${timeout}ms exceeded`
        : aborted
          ? 'Request aborted'
          : 'Network Error';
      throw new HttpError(message, null, undefined);
    }
    const ok = response.status >= 200 && response.status < 300;
    const data = ok && options.asText ? text : parseBody(text);
    if (!ok) {
      throw new HttpError(`Request failed with status code ${response.status}`, response.status, data);
    }
    return { status: response.status, data: data as T };
  } catch (error) {
    if (error instanceof HttpError) hooks.onError?.(error);
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
    hooks.onEnd?.(url);
  }
}

export const http = {
  get: <T = unknown>(url: string, options?: HttpOptions) => request<T>('GET', url, options),
  post: <T = unknown>(url: string, body?: unknown, options?: HttpOptions) =>
    request<T>('POST', url, { ...options, body }),
  put: <T = unknown>(url: string, body?: unknown, options?: HttpOptions) =>
    request<T>('PUT', url, { ...options, body }),
  delete: <T = unknown>(url: string, options?: HttpOptions) => request<T>('DELETE', url, options),
};
