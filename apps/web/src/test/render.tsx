import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';

/** Renders `element` at `path` inside a memory router and a fresh query client. */
export function renderAt(
  element: ReactElement,
  options: { path?: string; state?: unknown; routes?: RouteObject[] } = {},
) {
  const path = options.path ?? '/';
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter([{ path: '*', element }, ...(options.routes ?? [])], {
    initialEntries: [
      {
        pathname: path.split('?')[0] ?? '/',
        search: path.includes('?') ? path.slice(path.indexOf('?')) : '',
        state: options.state,
      },
    ],
  });
  const utils = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...utils, router, client };
}

/** A fetch stub answering each call in order; records the requests. */
export function stubFetch(answers: { status: number; body?: unknown }[]) {
  const calls: { url: string; method: string; body: unknown; headers: Record<string, string> }[] = [];
  const queue = [...answers];
  const fn = (input: RequestInfo | URL, init?: RequestInit) => {
    const answer = queue.shift() ?? { status: 500, body: { errors: [{ detail: 'unexpected call' }] } };
    calls.push({
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    });
    const text =
      answer.body === undefined
        ? ''
        : typeof answer.body === 'string'
          ? answer.body
          : JSON.stringify(answer.body);
    return Promise.resolve(new Response(answer.status === 204 ? null : text, { status: answer.status }));
  };
  return { fn, calls };
}
