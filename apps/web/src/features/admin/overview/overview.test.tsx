import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderAt } from '../../../test/render.tsx';
import { OverviewPage } from './OverviewPage.tsx';
import { wireList, wireNode } from '../testing.ts';

afterEach(() => vi.unstubAllGlobals());

const overview = (steps: Partial<Record<string, boolean>> = {}) => ({
  object: 'overview',
  attributes: {
    version: '0.1.0',
    counts: { users: 1, servers: 0, nodes: 1, locations: 1, nests: 2, eggs: 0, database_hosts: 0 },
    first_steps: {
      node_ready: true,
      egg_available: false,
      server_created: false,
      user_invited: false,
      ...steps,
    },
  },
});

const node = (id: number, name: string, allocated: { memory: number; disk: number }) =>
  wireNode(id, name, {
    uuid: `n-${id}`,
    created_at: '2025-01-01T00:00:00+00:00',
    allocated_resources: allocated,
  });

const health = (reachable: boolean, error: string | null = null) => ({
  object: 'node_health',
  attributes: {
    reachable,
    version: reachable ? '1.2.3' : null,
    architecture: reachable ? 'amd64' : null,
    cpu_count: reachable ? 4 : null,
    kernel_version: null,
    os: reachable ? 'linux' : null,
    memory: { total: reachable ? 16 * 1024 ** 3 : null },
    error,
    checked_at: '2025-01-01T00:00:00+00:00',
  },
});

/** Answers by address, so the order the page asks in does not matter. */
function route(answers: Record<string, { status: number; body: unknown }>) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push(url);
    const answer = answers[url.split('?')[0]!] ?? { status: 404, body: { errors: [{ detail: 'nope' }] } };
    return Promise.resolve(new Response(JSON.stringify(answer.body), { status: answer.status }));
  });
  return calls;
}

describe('admin overview', () => {
  it('shows the version, counts, first steps with the next one marked, and each node online or offline', async () => {
    route({
      '/api/application/overview': { status: 200, body: overview() },
      '/api/application/nodes': {
        status: 200,
        body: wireList('node', [
          node(1, 'Alpha', { memory: 4096, disk: 10240 }),
          node(2, 'Beta', { memory: 8000, disk: 0 }),
        ]),
      },
      '/api/application/nodes/1/health': { status: 200, body: health(true) },
      '/api/application/nodes/2/health': { status: 200, body: health(false, 'Connection refused') },
    });
    renderAt(<OverviewPage />, { path: '/admin' });
    expect(await screen.findByText('Talon 0.1.0')).toBeInTheDocument();

    const steps = screen.getByRole('region', { name: 'First steps' });
    const items = within(steps).getAllByRole('listitem');
    expect(items).toHaveLength(4);
    expect(items[0]).toHaveTextContent('Your node is ready (done)');
    expect(items[1]).toHaveAttribute('aria-current', 'step');
    expect(within(items[1]!).getByRole('link', { name: 'Go to nests and eggs' })).toHaveAttribute(
      'href',
      '/admin/nests',
    );
    // The owner's account comes before their server (issue 24: the owner picker finds only
    // existing users, unless "New user" in the server form makes one).
    expect(items[2]).toHaveTextContent('Invite its owner');
    expect(within(items[2]!).getByRole('link', { name: 'Create a user' })).toHaveAttribute(
      'href',
      '/admin/users/new',
    );
    expect(within(items[3]!).getByRole('link', { name: 'Create a server' })).toHaveAttribute(
      'href',
      '/admin/servers/new',
    );
    expect(items[3]).toHaveTextContent('or add them with “New user” right there');

    expect(screen.getByRole('link', { name: /2\s*Nests/ })).toHaveAttribute('href', '/admin/nests');

    const alpha = (await screen.findByRole('link', { name: 'Alpha' })).closest('li')!;
    expect(await within(alpha).findByText('Online')).toBeInTheDocument();
    expect(within(alpha).getByText(/Daemon 1.2.3 · 4 CPUs · 16 GB RAM/)).toBeInTheDocument();
    const memory = within(alpha).getByRole('progressbar', { name: 'Memory given to servers' });
    expect(memory).toHaveAttribute('aria-valuenow', '50');
    expect(memory).toHaveAttribute('aria-valuetext', '4 GB / 8 GB (50 %)');

    const beta = screen.getByRole('link', { name: 'Beta' }).closest('li')!;
    expect(await within(beta).findByText('Offline')).toBeInTheDocument();
    expect(within(beta).getByText('Connection refused')).toBeInTheDocument();
    // 8000 of 8192 MiB is over the 90 % alarm line: shown in red.
    expect(
      within(beta).getByRole('progressbar', { name: 'Memory given to servers' }).firstElementChild,
    ).toHaveClass('bg-red-500');
  });

  it('leaves out the first steps once every one is done, and says when there is no node', async () => {
    route({
      '/api/application/overview': {
        status: 200,
        body: overview({ node_ready: true, egg_available: true, server_created: true, user_invited: true }),
      },
      '/api/application/nodes': { status: 200, body: wireList('node', []) },
    });
    renderAt(<OverviewPage />, { path: '/admin' });
    expect(await screen.findByText('No node is set up yet: servers need one to run on.')).toBeInTheDocument();
    expect(screen.getByText('Talon 0.1.0')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'First steps' })).toBeNull();
  });

  it('puts a refused overview in words', async () => {
    route({
      '/api/application/overview': {
        status: 403,
        body: {
          errors: [
            { code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' },
          ],
        },
      },
      '/api/application/nodes': { status: 200, body: wireList('node', []) },
    });
    renderAt(<OverviewPage />, { path: '/admin' });
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
  });
});
