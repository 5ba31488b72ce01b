import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../test/render.tsx';
import { routeFetch, signInForTest, wireList, wireNode, wireUser } from '../testing.ts';
import { wireAllocation, wireServer } from './serverFixtures.ts';
import { ServersListPage } from './ServersListPage.tsx';

function withRelations(server: ReturnType<typeof wireServer>) {
  return {
    ...server,
    relationships: {
      user: { object: 'user', attributes: wireUser(3, 'alice') },
      node: { object: 'node', attributes: wireNode(1, 'Local') },
      allocations: wireList('allocation', [wireAllocation(11, 25565, { assigned: true })]),
    },
  };
}

const nodes = { url: '/api/application/nodes', status: 200, body: wireList('node', [wireNode(1, 'Local')]) };

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

describe('admin servers list', () => {
  it('shows name and identifier, owner, node, address, status and limits, linking to the server', async () => {
    const fetch = routeFetch([
      nodes,
      {
        url: '/api/application/servers',
        status: 200,
        body: wireList('server', [
          withRelations(wireServer(4, 'Survival', { status: 'installing' })),
          withRelations(wireServer(5, 'Creative', { limits: { ...wireServer(5, 'x').limits, memory: 0 } })),
        ]),
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<ServersListPage />, { path: '/admin/servers' });
    const survival = (await screen.findByText('Survival')).closest('tr')!;
    expect(survival).toHaveTextContent('00000004');
    expect(survival).toHaveTextContent('alice');
    expect(survival).toHaveTextContent('Local');
    expect(survival).toHaveTextContent('127.0.0.1:25565');
    expect(survival).toHaveTextContent('Installing');
    expect(survival).toHaveTextContent('1 GB');
    expect(screen.getByText('Creative').closest('tr')).toHaveTextContent('Unlimited');
    expect(screen.getByRole('link', { name: /Survival/ })).toHaveAttribute('href', '/admin/servers/view/4');
    const list = fetch.calls.find((c) => c.url.startsWith('/api/application/servers'))!;
    expect(decodeURIComponent(list.url)).toContain('include=user,node,allocations');
  });

  it('sends search, sort, owner, node and status from the address bar', async () => {
    const fetch = routeFetch([
      nodes,
      {
        url: '/api/application/users/3',
        status: 200,
        body: { object: 'user', attributes: wireUser(3, 'alice') },
      },
      { url: '/api/application/servers', status: 200, body: wireList('server', []) },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<ServersListPage />, {
      path: '/admin/servers?search=surv&sort=-created_at&owner_id=3&node_id=1&status=suspended&page=2',
    });
    expect(await screen.findByText('Nothing matches this search or filter.')).toBeInTheDocument();
    const url = decodeURIComponent(
      fetch.calls.find((c) => c.url.startsWith('/api/application/servers'))!.url,
    );
    expect(url).toContain('search=surv');
    expect(url).toContain('sort=-created_at');
    expect(url).toContain('filter[owner_id]=3');
    expect(url).toContain('filter[node_id]=1');
    expect(url).toContain('filter[status]=suspended');
    expect(url).toContain('page=2');
    // The owner filter names the user from the address bar.
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Owner' })).toHaveValue('alice (alice@example.com)'),
    );
  });

  it('filters by owner picked by search, and clears it', async () => {
    const fetch = routeFetch([
      nodes,
      { url: '/api/application/users', status: 200, body: wireList('user', [wireUser(3, 'alice')]) },
      { url: '/api/application/servers', status: 200, body: wireList('server', []) },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    const { router } = renderAt(<ServersListPage />, { path: '/admin/servers' });
    expect(await screen.findByText('There are no servers yet.')).toBeInTheDocument();
    const owner = screen.getByRole('combobox', { name: 'Owner' });
    await userEvent.type(owner, 'al');
    await userEvent.keyboard('{ArrowDown}');
    await screen.findByRole('option', { name: /alice/ });
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?owner_id=3'));
    expect(fetch.calls.some((c) => decodeURIComponent(c.url).includes('filter[owner_id]=3'))).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Clear the owner filter' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('says what went wrong when the list cannot be loaded, with a retry', async () => {
    vi.stubGlobal(
      'fetch',
      routeFetch([
        nodes,
        {
          url: '/api/application/servers',
          status: 403,
          body: {
            errors: [
              { code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' },
            ],
          },
        },
      ]).fn,
    );
    renderAt(<ServersListPage />, { path: '/admin/servers' });
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows placeholder rows while loading', async () => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => {}));
    renderAt(<ServersListPage />, { path: '/admin/servers' });
    expect(await screen.findAllByTestId('skeleton-row')).toHaveLength(5);
    expect(screen.getByRole('table', { name: 'Servers' })).toHaveAttribute('aria-busy', 'true');
  });
});
