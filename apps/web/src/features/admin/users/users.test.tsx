import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { renderAt } from '../../../test/render.tsx';
import { routeFetch, signInForTest, wireList, wireUser } from '../testing.ts';
import { UsersListPage } from './UsersListPage.tsx';
import { NewUserPage, UserViewPage } from './UserPages.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const withServers = (user: Record<string, unknown>, count: number) => ({
  ...user,
  relationships: {
    servers: wireList(
      'server',
      Array.from({ length: count }, (_, i) => ({ id: i + 1 })),
    ),
  },
});

function wireServer(id: number, name: string, owner: number) {
  return {
    id,
    external_id: null,
    uuid: `s-${id}`,
    identifier: `s${id}abcdef`,
    name,
    description: '',
    status: null,
    suspended: false,
    limits: { memory: 1024, swap: 0, disk: 4096, io: 500, cpu: 100, threads: null, oom_disabled: false },
    feature_limits: { databases: 0, allocations: 0, backups: 0 },
    user: owner,
    node: 1,
    allocation: 1,
    nest: 1,
    egg: 1,
    container: { startup_command: 'x', image: 'img', installed: 1, environment: {} },
    created_at: '2025-01-05T10:00:00+00:00',
    updated_at: null,
  };
}

const error = (status: number, detail: string, code = 'DisplayException', field?: string) => ({
  errors: [
    { code, status: String(status), detail, ...(field ? { meta: { source_field: field, rule: 'x' } } : {}) },
  ],
});

describe('admin users list', () => {
  it('asks with the search, sort and page of the address and shows each account', async () => {
    const fetch = routeFetch([
      {
        url: '/api/application/users',
        status: 200,
        body: wireList(
          'user',
          [
            withServers(wireUser(1, 'ann', { root_admin: true, '2fa': true }), 2),
            withServers(wireUser(2, 'bob'), 0),
          ],
          2,
          2,
          4,
        ),
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<UsersListPage />, { path: '/admin/users?search=a&sort=-email&page=2' });

    const ann = (await screen.findByRole('link', { name: 'ann' })).closest('tr')!;
    expect(screen.getByRole('link', { name: 'ann' })).toHaveAttribute('href', '/admin/users/view/1');
    expect(within(ann).getByText('ann@example.com')).toBeInTheDocument();
    expect(within(ann).getByText('On')).toBeInTheDocument();
    expect(within(ann).getByText('Administrator')).toBeInTheDocument();
    expect(within(ann).getByText('2')).toBeInTheDocument();
    const bob = screen.getByRole('link', { name: 'bob' }).closest('tr')!;
    expect(within(bob).getByText('Off')).toBeInTheDocument();
    expect(within(bob).queryByText('Administrator')).toBeNull();

    const url = new URL(fetch.calls[0]!.url, 'http://x');
    expect(url.searchParams.get('search')).toBe('a');
    expect(url.searchParams.get('sort')).toBe('-email');
    expect(url.searchParams.get('page')).toBe('2');
    expect(url.searchParams.get('include')).toBe('servers');
    expect(screen.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('shows placeholder rows while loading, then the empty state', async () => {
    let answer: (r: Response) => void = () => undefined;
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    renderAt(<UsersListPage />, { path: '/admin/users' });
    expect(await screen.findAllByTestId('skeleton-row')).toHaveLength(5);
    answer(new Response(JSON.stringify(wireList('user', [])), { status: 200 }));
    expect(await screen.findByText('There are no users yet.')).toBeInTheDocument();
  });

  it("puts the API's error in words", async () => {
    vi.stubGlobal(
      'fetch',
      routeFetch([{ url: '/api/application/users', status: 500, body: error(500, 'The database is down.') }])
        .fn,
    );
    renderAt(<UsersListPage />, { path: '/admin/users' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is down.');
  });
});

describe('admin create user', () => {
  it('checks the fields before sending', async () => {
    const fetch = routeFetch([]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<NewUserPage />, { path: '/admin/users/new' });
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Username'), '-x');
    await userEvent.click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('Enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByText(/The username must be at least 3 characters/)).toBeInTheDocument();
    expect(screen.getByText('A first name is required.')).toBeInTheDocument();
    expect(screen.getByText('A last name is required.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetch.calls).toHaveLength(0);
  });

  it('creates without a password (the user gets a link by email) and opens the new user', async () => {
    const fetch = routeFetch([
      {
        method: 'POST',
        url: '/api/application/users',
        status: 201,
        body: { object: 'user', attributes: wireUser(9, 'carol') },
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    const { router } = renderAt(<NewUserPage />, { path: '/admin/users/new' });
    expect(screen.getByText(/without one, the user gets an email with a link/i)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'Carol@example.com');
    await userEvent.type(screen.getByLabelText('Username'), 'carol');
    await userEvent.type(screen.getByLabelText('First name'), 'Carol');
    await userEvent.type(screen.getByLabelText('Last name'), 'Smith');
    await userEvent.click(screen.getByLabelText('Administrator'));
    await userEvent.click(screen.getByRole('button', { name: 'Create user' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users/view/9'));
    expect(fetch.calls[0]!.body).toEqual({
      email: 'Carol@example.com',
      username: 'carol',
      first_name: 'Carol',
      last_name: 'Smith',
      language: 'en',
      root_admin: true,
    });
  });

  it("puts the API's 422 beside its field and stays", async () => {
    const fetch = routeFetch([
      {
        method: 'POST',
        url: '/api/application/users',
        status: 422,
        body: error(422, 'The email has already been taken.', 'ValidationException', 'email'),
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    const { router } = renderAt(<NewUserPage />, { path: '/admin/users/new' });
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
    await userEvent.type(screen.getByLabelText('Username'), 'ann2');
    await userEvent.type(screen.getByLabelText('First name'), 'Ann');
    await userEvent.type(screen.getByLabelText('Last name'), 'Lee');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('The email has already been taken.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetch.calls[0]!.body).toMatchObject({ password: 'correct horse' });
    expect(router.state.location.pathname).toBe('/admin/users/new');
  });
});

describe('admin user view', () => {
  const view = (
    <Routes>
      <Route path="/admin/users/view/:id" element={<UserViewPage />} />
      <Route path="*" element={null} />
    </Routes>
  );

  const viewRoutes = (user = wireUser(7, 'dave', { '2fa': true })) => [
    { url: '/api/application/users/7', status: 200, body: { object: 'user', attributes: user } },
    {
      url: '/api/application/servers',
      status: 200,
      body: wireList('server', [wireServer(3, 'Survival', 7)]),
    },
  ];

  it("lists the user's servers, linking to their admin view", async () => {
    const fetch = routeFetch(viewRoutes());
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(view, { path: '/admin/users/view/7' });
    expect(await screen.findByRole('link', { name: 'Survival' })).toHaveAttribute(
      'href',
      '/admin/servers/view/3',
    );
    const serversCall = fetch.calls.find((c) => c.url.startsWith('/api/application/servers'))!;
    expect(new URL(serversCall.url, 'http://x').searchParams.get('filter[owner_id]')).toBe('7');
  });

  it('saves an edit with every field, leaving out a blank password', async () => {
    const fetch = routeFetch([
      {
        method: 'PATCH',
        url: '/api/application/users/7',
        status: 200,
        body: { object: 'user', attributes: wireUser(7, 'david', { '2fa': true }) },
      },
      ...viewRoutes(),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(view, { path: '/admin/users/view/7' });
    const username = await screen.findByLabelText('Username');
    await waitFor(() => expect(username).toHaveValue('dave'));
    await userEvent.clear(username);
    await userEvent.type(username, 'david');
    await userEvent.click(screen.getByRole('button', { name: 'Save user' }));
    expect(await screen.findByText('The user was saved.')).toBeInTheDocument();
    const patch = fetch.calls.find((c) => c.method === 'PATCH')!;
    expect(patch.body).toEqual({
      email: 'dave@example.com',
      username: 'david',
      first_name: 'First',
      last_name: 'Last',
      language: 'en',
      root_admin: false,
    });
  });

  it('turns two-factor off after a confirmation naming the user', async () => {
    const fetch = routeFetch([
      { method: 'DELETE', url: '/api/application/users/7/two-factor', status: 204 },
      ...viewRoutes(),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(view, { path: '/admin/users/view/7' });
    await userEvent.click(await screen.findByRole('button', { name: 'Disable two-factor' }));
    const dialog = screen.getByRole('dialog', { name: 'Turn two-factor off?' });
    expect(dialog).toHaveTextContent('dave will sign in with their password only');
    expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable two-factor' }));
    expect(await screen.findByText('Two-factor authentication was turned off for dave.')).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      '/api/application/users/7/two-factor',
    ]);
    expect(screen.queryByRole('button', { name: 'Disable two-factor' })).toBeNull();
  });

  it("shows the API's refusal to delete a user who owns servers, in the dialog", async () => {
    const refusal =
      'Cannot delete a user with active servers attached to their account. Please delete their servers before continuing.';
    const fetch = routeFetch([
      { method: 'DELETE', url: '/api/application/users/7', status: 400, body: error(400, refusal) },
      ...viewRoutes(),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    const { router } = renderAt(view, { path: '/admin/users/view/7' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete user' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete dave?' });
    expect(dialog).toHaveTextContent('dave@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(router.state.location.pathname).toBe('/admin/users/view/7');
  });

  it('deletes after the confirmation and goes back to the list', async () => {
    const fetch = routeFetch([
      { method: 'DELETE', url: '/api/application/users/7', status: 204 },
      ...viewRoutes(wireUser(7, 'dave')),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    const { router } = renderAt(view, { path: '/admin/users/view/7' });
    expect(await screen.findByText('Two-factor off')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete user' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users'));
  });
});
