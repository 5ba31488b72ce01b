import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../test/render.tsx';
import { routeFetch, signInForTest, wireFieldError, wireList } from '../testing.ts';
import { LocationsListPage } from './LocationsListPage.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const location = (id: number, short: string, long: string | null, nodes = 0, servers = 0) => ({
  id,
  short,
  long,
  created_at: '2025-01-05T10:00:00+00:00',
  updated_at: null,
  relationships: {
    nodes: wireList(
      'node',
      Array.from({ length: nodes }, (_, i) => ({ id: i + 1 })),
    ),
    servers: wireList(
      'server',
      Array.from({ length: servers }, (_, i) => ({ id: i + 1 })),
    ),
  },
});

const list = (...items: ReturnType<typeof location>[]) => ({
  url: '/api/application/locations',
  status: 200,
  body: wireList('location', items),
});

describe('admin locations', () => {
  it('asks with the search and sort of the address and shows node and server counts', async () => {
    const fetch = routeFetch([list(location(1, 'eu', 'Frankfurt', 2, 5))]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<LocationsListPage />, { path: '/admin/locations?search=eu&sort=short' });
    const row = (await screen.findByText('Frankfurt')).closest('tr')!;
    expect(within(row).getByText('eu')).toBeInTheDocument();
    expect(within(row).getByText('2')).toBeInTheDocument();
    expect(within(row).getByText('5')).toBeInTheDocument();
    const url = new URL(fetch.calls[0]!.url, 'http://x');
    expect(url.searchParams.get('search')).toBe('eu');
    expect(url.searchParams.get('sort')).toBe('short');
    expect(url.searchParams.get('include')).toBe('nodes,servers');
  });

  it('says so when there are none, and when a search matches none', async () => {
    vi.stubGlobal('fetch', routeFetch([list()]).fn);
    renderAt(<LocationsListPage />, { path: '/admin/locations' });
    expect(await screen.findByText('There are no locations yet.')).toBeInTheDocument();
  });

  it('shows placeholder rows while loading and the error in words', async () => {
    let answer: (r: Response) => void = () => undefined;
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    renderAt(<LocationsListPage />, { path: '/admin/locations' });
    expect(await screen.findAllByTestId('skeleton-row')).toHaveLength(5);
    answer(
      new Response(
        JSON.stringify({ errors: [{ code: 'X', status: '500', detail: 'The database is down.' }] }),
        {
          status: 500,
        },
      ),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is down.');
  });

  it('checks the create form before sending, then creates and says so', async () => {
    const fetch = routeFetch([
      {
        method: 'POST',
        url: '/api/application/locations',
        status: 201,
        body: { object: 'location', attributes: location(2, 'us', null) },
      },
      list(),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<LocationsListPage />, { path: '/admin/locations' });
    await screen.findByText('There are no locations yet.');
    await userEvent.click(screen.getByRole('button', { name: 'Create location' }));
    const dialog = screen.getByRole('dialog', { name: 'New location' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create location' }));
    expect(await within(dialog).findByText('A short code is required.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Short code'), 'x'.repeat(61));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create location' }));
    expect(
      await within(dialog).findByText('The short code may not be longer than 60 characters.'),
    ).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await userEvent.clear(within(dialog).getByLabelText('Short code'));
    await userEvent.type(within(dialog).getByLabelText('Short code'), 'us');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create location' }));
    expect(await screen.findByText('The location us was created.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetch.calls.find((c) => c.method === 'POST')!.body).toEqual({ short: 'us', long: null });
  });

  it("edits a location and puts the API's 422 beside its field", async () => {
    const fetch = routeFetch([
      {
        method: 'PATCH',
        url: '/api/application/locations/1',
        status: 422,
        once: true,
        body: {
          errors: [wireFieldError('short', 'unique', 'The short has already been taken.')],
        },
      },
      {
        method: 'PATCH',
        url: '/api/application/locations/1',
        status: 200,
        body: { object: 'location', attributes: location(1, 'eu-west', 'Frankfurt') },
      },
      list(location(1, 'eu', 'Frankfurt')),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<LocationsListPage />, { path: '/admin/locations' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit location eu' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit location eu' });
    const short = within(dialog).getByLabelText('Short code');
    expect(short).toHaveValue('eu');
    expect(within(dialog).getByLabelText('Description')).toHaveValue('Frankfurt');
    await userEvent.clear(short);
    await userEvent.type(short, 'us');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save location' }));
    expect(await within(dialog).findByText('The short has already been taken.')).toBeInTheDocument();
    expect(short).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(short);
    await userEvent.type(short, 'eu-west');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save location' }));
    expect(await screen.findByText('The location eu-west was saved.')).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'PATCH').at(-1)!.body).toEqual({
      short: 'eu-west',
      long: 'Frankfurt',
    });
  });

  it("asks before deleting, naming the location, and shows the API's refusal while nodes use it", async () => {
    const refusal = 'Cannot delete a location that has active nodes attached to it.';
    const fetch = routeFetch([
      {
        method: 'DELETE',
        url: '/api/application/locations/1',
        status: 400,
        body: { errors: [{ code: 'HasActiveNodesException', status: '400', detail: refusal }] },
      },
      list(location(1, 'eu', 'Frankfurt', 1)),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<LocationsListPage />, { path: '/admin/locations' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete location eu' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete location eu?' });
    expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete location' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
  });

  it('deletes after the confirmation and says so', async () => {
    const fetch = routeFetch([
      { method: 'DELETE', url: '/api/application/locations/1', status: 204 },
      list(location(1, 'eu', 'Frankfurt')),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<LocationsListPage />, { path: '/admin/locations' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete location eu' }));
    await userEvent.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete location' }),
    );
    expect(await screen.findByText('The location eu was deleted.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetch.calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      '/api/application/locations/1',
    ]);
  });
});
