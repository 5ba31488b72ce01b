import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { renderAt, stubFetch } from '../../test/render.tsx';
import { useGlobalStore } from '../../app/store.ts';
import { DashboardPage } from './DashboardPage.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('DashboardPage', () => {
  it('shows the empty-state text', async () => {
    const stub = stubFetch([
      {
        status: 200,
        body: {
          object: 'list',
          data: [],
          meta: { pagination: { total: 0, count: 0, per_page: 50, current_page: 1, total_pages: 1 } },
        },
      },
    ]);
    vi.stubGlobal('fetch', stub.fn);
    renderAt(<DashboardPage />);
    expect(await screen.findByText('There are no servers associated with your account.')).toBeInTheDocument();
    expect(stub.calls[0]!.url).toBe('/api/client?page=1');
    expect(document.title).toBe('Dashboard');
  });
  it('lists servers linking to /server/{id}', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([
        {
          status: 200,
          body: {
            object: 'list',
            data: [
              {
                object: 'server',
                attributes: {
                  identifier: 'abcd1234',
                  uuid: 'abcd1234-0000',
                  name: 'Survival',
                  description: '',
                  node: 'n1',
                },
              },
            ],
          },
        },
      ]).fn,
    );
    renderAt(<DashboardPage />);
    expect((await screen.findByText('Survival')).closest('a')).toHaveAttribute('href', '/server/abcd1234');
  });
  it('shows a load failure', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([
        {
          status: 500,
          body: {
            errors: [
              {
                detail:
                  'An unexpected error was encountered while processing this request, please try again.',
              },
            ],
          },
        },
      ]).fn,
    );
    renderAt(<DashboardPage />);
    expect(
      await screen.findByText(
        'An unexpected error was encountered while processing this request, please try again.',
      ),
    ).toBeInTheDocument();
    // Spec 000 §8: an error flash titled 'Error' under the `dashboard` key.
    expect(useGlobalStore.getState().flashes).toEqual([
      expect.objectContaining({ key: 'dashboard', type: 'error', title: 'Error' }),
    ]);
    useGlobalStore.getState().clearFlashes();
  });
});
