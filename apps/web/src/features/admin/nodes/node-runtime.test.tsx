import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { renderAt } from '../../../test/render.tsx';
import { routeFetch, signInForTest, wireList, wireNode } from '../testing.ts';
import { NodeAboutTab, NodeViewLayout } from './NodePages.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const health = (runtime: Record<string, unknown> | null) => ({
  object: 'node_health',
  attributes: {
    reachable: true,
    version: '0.1.0',
    architecture: 'amd64',
    cpu_count: 8,
    kernel_version: '6.1.0',
    os: 'Debian GNU/Linux 12 (bookworm)',
    memory: { total: 16 * 1024 ** 3 },
    runtime,
    error: null,
    checked_at: '2025-01-05T10:00:00Z',
  },
});

function renderAbout(runtime: Record<string, unknown> | null): void {
  const fetch = routeFetch([
    { url: '/api/application/nodes/3/health', status: 200, body: health(runtime) },
    { url: '/api/application/nodes/3/allocations', status: 200, body: wireList('allocation', []) },
    {
      url: '/api/application/nodes/3',
      status: 200,
      body: { object: 'node', attributes: wireNode(3, 'Alpha') },
    },
    { url: '/api/application/servers', status: 200, body: wireList('server', []) },
  ]);
  vi.stubGlobal('fetch', fetch.fn);
  renderAt(
    <Routes>
      <Route path="/admin/nodes/view/:id" element={<NodeViewLayout />}>
        <Route index element={<NodeAboutTab />} />
      </Route>
    </Routes>,
    { path: '/admin/nodes/view/3' },
  );
}

/** The value beside the "Runtime" term of the daemon's details. */
async function runtimeShown(): Promise<string | null> {
  const term = await screen.findByText('Runtime');
  return term.nextElementSibling?.textContent ?? null;
}

describe('the admin node page shows how the node runs servers', () => {
  it.each([
    [{ driver: 'docker', confinement: 'container', network: 'host' }, 'Docker (host network)'],
    [{ driver: 'docker', confinement: 'container', network: 'talon_nw' }, 'Docker (network talon_nw)'],
    [{ driver: 'docker', confinement: 'container', network: null }, 'Docker'],
    [{ driver: 'process', confinement: 'bwrap', network: null }, 'Processes (bubblewrap)'],
    [{ driver: 'process', confinement: 'none', network: null }, 'Processes (unconfined)'],
    [null, '—'],
  ])('%j → %s', async (runtime, label) => {
    renderAbout(runtime);
    expect(await runtimeShown()).toBe(label);
  });
});
