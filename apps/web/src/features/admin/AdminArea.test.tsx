import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { routes } from '../../app/router.tsx';
import { renderAt, stubFetch } from '../../test/render.tsx';
import { AdminArea } from './AdminArea.tsx';
import { signInForTest, wireList, wireUser } from './testing.ts';
import { SEARCH_DEBOUNCE_MS } from './components/ListToolbar.tsx';

afterEach(() => vi.unstubAllGlobals());

function renderAdmin(path: string) {
  return renderAt(
    <Routes>
      <Route path="/admin/*" element={<AdminArea />} />
    </Routes>,
    { path },
  );
}

/** The route object of /admin/* in the app's route table. */
function adminRoute() {
  const signedIn = routes[0]!.children!.find((r) => r.path === '/')!;
  return signedIn.children!.find((r) => r.path === 'admin/*')!;
}

describe('/admin/*', () => {
  it('is a lazily loaded route whose chunk is the admin area', async () => {
    const route = adminRoute();
    expect(route.Component).toBeUndefined();
    expect(typeof route.lazy).toBe('function');
    const loaded = await (route.lazy as () => Promise<{ Component: unknown }>)();
    expect(loaded.Component).toBe(AdminArea);
  });

  it('gives a user who is not a root admin the 404 page and asks the API nothing', () => {
    const fetch = stubFetch([]);
    vi.stubGlobal('fetch', fetch.fn);
    signInForTest(false);
    renderAdmin('/admin/users');
    expect(screen.getByText('The requested resource was not found.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Administration' })).toBeNull();
    expect(fetch.calls).toHaveLength(0);
  });

  it('shows a root admin the users list from the application API, with the nav marking the page', async () => {
    const fetch = stubFetch([
      {
        status: 200,
        body: wireList('user', [wireUser(1, 'alice', { root_admin: true }), wireUser(2, 'bob')]),
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    signInForTest(true);
    renderAdmin('/admin/users');
    expect(await screen.findByRole('link', { name: 'alice' })).toHaveAttribute('href', '/admin/users/view/1');
    expect(screen.getByRole('link', { name: 'bob' })).toBeInTheDocument();
    expect(screen.getByText('Showing 1–2 of 2')).toBeInTheDocument();
    // The users screen may ask for includes; the list itself is what matters here.
    expect(fetch.calls[0]!.url).toMatch(/^\/api\/application\/users(\?|$)/);
    const nav = screen.getAllByRole('navigation', { name: 'Administration' })[0]!;
    expect(within(nav).getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current');
    expect(document.title).toBe('Users · Admin');
  });

  it('searches after typing stops and puts the search in the address', async () => {
    const fetch = stubFetch([
      { status: 200, body: wireList('user', [wireUser(1, 'alice'), wireUser(2, 'bob')]) },
      { status: 200, body: wireList('user', [wireUser(2, 'bob')]) },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    signInForTest(true);
    const { router } = renderAdmin('/admin/users?page=2');
    await screen.findByRole('link', { name: 'alice' });
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'bo' } });
    await waitFor(() => expect(screen.queryByRole('link', { name: 'alice' })).toBeNull(), {
      timeout: SEARCH_DEBOUNCE_MS * 20,
    });
    expect(fetch.calls).toHaveLength(2);
    const asked = new URL(fetch.calls[1]!.url, 'http://panel.test');
    expect(asked.pathname).toBe('/api/application/users');
    expect(asked.searchParams.get('search')).toBe('bo');
    expect(asked.searchParams.get('page')).toBeNull();
    expect(router.state.location.search).toBe('?search=bo');
  });

  it('says the list is empty', async () => {
    vi.stubGlobal('fetch', stubFetch([{ status: 200, body: wireList('node', []) }]).fn);
    signInForTest(true);
    renderAdmin('/admin/nodes');
    expect(await screen.findByText('There are no nodes yet.')).toBeInTheDocument();
  });

  it('shows an unknown admin address as the 404 page inside the admin frame', () => {
    vi.stubGlobal('fetch', stubFetch([]).fn);
    signInForTest(true);
    renderAdmin('/admin/no-such-screen');
    expect(screen.getByText('The requested resource was not found.')).toBeInTheDocument();
    expect(screen.getAllByRole('navigation', { name: 'Administration' }).length).toBeGreaterThan(0);
  });

  it('puts a failed list request in words', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([
        {
          status: 500,
          body: { errors: [{ code: 'X', status: '500', detail: 'Something broke on the panel.' }] },
        },
      ]).fn,
    );
    signInForTest(true);
    renderAdmin('/admin/locations');
    expect(await screen.findByText('Something broke on the panel.')).toBeInTheDocument();
  });
});
