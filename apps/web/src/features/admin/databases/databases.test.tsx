import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { renderAt } from '../../../test/render.tsx';
import { routeFetch, signInForTest, wireDatabaseHost, wireList, type FetchRoute } from '../testing.ts';
import { DatabaseHostsListPage } from './DatabaseHostsListPage.tsx';
import { DatabaseHostViewPage, NewDatabaseHostPage } from './DatabaseHostPages.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const host = wireDatabaseHost;

const nodes: FetchRoute = {
  url: '/api/application/nodes',
  status: 200,
  body: wireList('node', [{ id: 1, name: 'Local', location_id: 1 }]),
};

const refusal = (status: number, code: string, detail: string, field?: string) => ({
  errors: [
    { code, status: String(status), detail, ...(field ? { meta: { source_field: field, rule: 'x' } } : {}) },
  ],
});

async function fillNewHost() {
  await userEvent.type(screen.getByLabelText('Name'), 'Main DB');
  await userEvent.type(screen.getByLabelText('Host'), 'db.internal');
  await userEvent.type(screen.getByLabelText('Username'), 'talon');
  await userEvent.type(screen.getByLabelText('Password'), 's3cret');
}

describe('admin database hosts list', () => {
  it('shows name, address, username and linked node, asking with the search of the address', async () => {
    const fetch = routeFetch([
      nodes,
      {
        url: '/api/application/database-hosts',
        status: 200,
        body: wireList('database_host', [host(4, 'Main DB')]),
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<DatabaseHostsListPage />, { path: '/admin/databases?search=main' });
    const link = await screen.findByRole('link', { name: 'Main DB' });
    expect(link).toHaveAttribute('href', '/admin/databases/view/4');
    const row = link.closest('tr')!;
    expect(within(row).getByText('127.0.0.1:3306')).toBeInTheDocument();
    expect(within(row).getByText('talon')).toBeInTheDocument();
    expect(await within(row).findByText('Local')).toBeInTheDocument();
    const call = fetch.calls.find((c) => c.url.startsWith('/api/application/database-hosts'))!;
    expect(new URL(call.url, 'http://x').searchParams.get('search')).toBe('main');
  });

  it('shows placeholder rows while loading, then the empty state', async () => {
    let answer: (r: Response) => void = () => undefined;
    vi.stubGlobal('fetch', (url: string) =>
      url.startsWith('/api/application/nodes')
        ? Promise.resolve(new Response(JSON.stringify(wireList('node', [])), { status: 200 }))
        : new Promise<Response>((resolve) => (answer = resolve)),
    );
    renderAt(<DatabaseHostsListPage />, { path: '/admin/databases' });
    expect(await screen.findAllByTestId('skeleton-row')).toHaveLength(5);
    answer(new Response(JSON.stringify(wireList('database_host', [])), { status: 200 }));
    expect(await screen.findByText('There are no database hosts yet.')).toBeInTheDocument();
  });

  it("puts the API's error in words", async () => {
    vi.stubGlobal(
      'fetch',
      routeFetch([
        nodes,
        {
          url: '/api/application/database-hosts',
          status: 500,
          body: refusal(500, 'X', 'The database is down.'),
        },
      ]).fn,
    );
    renderAt(<DatabaseHostsListPage />, { path: '/admin/databases' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is down.');
  });
});

describe('admin create database host', () => {
  it('checks the fields before sending', async () => {
    const fetch = routeFetch([nodes]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<NewDatabaseHostPage />, { path: '/admin/databases/new' });
    await userEvent.clear(screen.getByLabelText('Port'));
    await userEvent.type(screen.getByLabelText('Port'), '70000');
    await userEvent.type(screen.getByLabelText('Database limit'), 'lots');
    await userEvent.click(screen.getByRole('button', { name: 'Test connection and save' }));
    expect(await screen.findByText('A name is required.')).toBeInTheDocument();
    expect(screen.getByText('The host address is required.')).toBeInTheDocument();
    expect(screen.getByText('A username is required.')).toBeInTheDocument();
    expect(screen.getByText('Enter a port between 1 and 65535.')).toBeInTheDocument();
    expect(screen.getByText('Enter a whole number, or leave it empty for no limit.')).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('switches the usual port with the engine', async () => {
    vi.stubGlobal('fetch', routeFetch([nodes]).fn);
    renderAt(<NewDatabaseHostPage />, { path: '/admin/databases/new' });
    expect(screen.getByLabelText('Port')).toHaveValue('3306');
    await userEvent.selectOptions(screen.getByLabelText('Engine'), 'postgresql');
    expect(screen.getByLabelText('Port')).toHaveValue('5432');
  });

  it("shows the API's connection problem at the form and saves nothing", async () => {
    const problem = 'The database server at db.internal:3306 denied access to "talon" (wrong password?).';
    const fetch = routeFetch([
      nodes,
      {
        method: 'POST',
        url: '/api/application/database-hosts',
        status: 400,
        body: refusal(400, 'DatabaseHostConnectionException', problem),
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    const { router } = renderAt(<NewDatabaseHostPage />, { path: '/admin/databases/new' });
    await fillNewHost();
    await userEvent.click(screen.getByRole('button', { name: 'Test connection and save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Connection failed');
    expect(alert).toHaveTextContent(problem);
    expect(router.state.location.pathname).toBe('/admin/databases/new');
  });

  it('creates with the linked node, then opens the host with a note that it connected', async () => {
    const fetch = routeFetch([
      nodes,
      {
        method: 'POST',
        url: '/api/application/database-hosts',
        status: 201,
        body: { object: 'database_host', attributes: host(5, 'Main DB', { host: 'db.internal' }) },
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    const { router } = renderAt(<NewDatabaseHostPage />, { path: '/admin/databases/new' });
    await fillNewHost();
    await screen.findByRole('option', { name: 'Local' });
    await userEvent.selectOptions(screen.getByLabelText('Linked node'), 'Local');
    await userEvent.click(screen.getByRole('button', { name: 'Test connection and save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/databases/view/5'));
    expect(screen.getByText('Connected to db.internal:3306 and saved Main DB.')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'Main DB',
      engine: 'mysql',
      host: 'db.internal',
      port: 3306,
      username: 'talon',
      password: 's3cret',
      max_databases: null,
      node_ids: [1],
    });
  });

  it("puts the API's 422 beside its field", async () => {
    const fetch = routeFetch([
      nodes,
      {
        method: 'POST',
        url: '/api/application/database-hosts',
        status: 422,
        body: refusal(422, 'ValidationException', 'The name has already been taken.', 'name'),
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<NewDatabaseHostPage />, { path: '/admin/databases/new' });
    await fillNewHost();
    await userEvent.click(screen.getByRole('button', { name: 'Test connection and save' }));
    expect(await screen.findByText('The name has already been taken.')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('admin database host view', () => {
  const view = (
    <Routes>
      <Route path="/admin/databases/view/:id" element={<DatabaseHostViewPage />} />
      <Route path="*" element={null} />
    </Routes>
  );
  const item: FetchRoute = {
    url: '/api/application/database-hosts/4',
    status: 200,
    body: { object: 'database_host', attributes: host(4, 'Main DB', { node_ids: [1, 2] }) },
  };

  it('saves an edit without the password when it is left blank, keeps other nodes, and says it connected', async () => {
    const fetch = routeFetch([
      nodes,
      item,
      {
        method: 'PATCH',
        url: '/api/application/database-hosts/4',
        status: 200,
        body: { object: 'database_host', attributes: host(4, 'Main DB', { port: 3307 }) },
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(view, { path: '/admin/databases/view/4' });
    const port = await screen.findByLabelText('Port');
    expect(screen.getByText('Leave blank to keep the stored password.')).toBeInTheDocument();
    await userEvent.clear(port);
    await userEvent.type(port, '3307');
    await userEvent.click(screen.getByRole('button', { name: 'Test connection and save' }));
    expect(await screen.findByText('Connected and saved.')).toBeInTheDocument();
    const body = fetch.calls.find((c) => c.method === 'PATCH')!.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('password');
    expect(body).toMatchObject({ port: 3307, node_ids: [1, 2] });
  });

  it("asks before deleting, naming the host, and shows the API's refusal while it has databases", async () => {
    const detail = 'Cannot delete a database host that still has databases: delete its databases first.';
    const fetch = routeFetch([
      nodes,
      item,
      {
        method: 'DELETE',
        url: '/api/application/database-hosts/4',
        status: 400,
        body: refusal(400, 'HasActiveDatabasesException', detail),
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(view, { path: '/admin/databases/view/4' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete database host' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Main DB?' });
    expect(dialog).toHaveTextContent('127.0.0.1:3306');
    expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete database host' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(detail);
  });

  it('deletes after the confirmation and goes back to the list', async () => {
    const fetch = routeFetch([
      nodes,
      item,
      { method: 'DELETE', url: '/api/application/database-hosts/4', status: 204 },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    const { router } = renderAt(view, { path: '/admin/databases/view/4' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete database host' }));
    await userEvent.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete database host' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/databases'));
  });
});
