import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { signInForTest, wireFieldError, wireList, wireNotFound } from '../testing.ts';
import { ApiKeysPage } from './ApiKeysPage.tsx';

const none = {
  users: 0,
  nodes: 0,
  allocations: 0,
  locations: 0,
  nests: 0,
  eggs: 0,
  servers: 0,
  database_hosts: 0,
  server_databases: 0,
};
const key = (identifier: string, description: string, lastUsed: string | null, permissions = none) => ({
  identifier,
  description,
  allowed_ips: [],
  permissions,
  last_used_at: lastUsed,
  created_at: '2025-01-01T00:00:00+00:00',
});

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

describe('admin application API keys', () => {
  it('lists keys with their access and last use, or Never', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([
        {
          status: 200,
          body: wireList('api_key', [
            key('ptla_aaaaaaaaaaaa', 'WHMCS', new Date(2025, 0, 5, 14, 3).toISOString(), {
              ...none,
              servers: 3,
              users: 1,
            }),
            key('ptla_bbbbbbbbbbbb', 'Unused', null),
          ]),
        },
      ]).fn,
    );
    renderAt(<ApiKeysPage />, { path: '/admin/api' });
    const whmcs = (await screen.findByText('WHMCS')).closest('tr')!;
    expect(whmcs).toHaveTextContent('Users: read · Servers: read & write');
    expect(whmcs).toHaveTextContent('Jan 5, 2025 14:03');
    const unused = screen.getByText('Unused').closest('tr')!;
    expect(unused).toHaveTextContent('No access');
    expect(unused).toHaveTextContent('Never');
  });

  it('creates a key with a right per resource and shows the token once', async () => {
    const fetch = stubFetch([
      { status: 200, body: wireList('api_key', []) },
      {
        status: 201,
        body: {
          object: 'api_key',
          attributes: key('ptla_cccccccccccc', 'Billing', null, { ...none, servers: 1 }),
          meta: { secret_token: 'ptla_ccccccccccccSECRETSECRETSECRET' },
        },
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<ApiKeysPage />, { path: '/admin/api' });
    expect(await screen.findByText('There are no application keys yet.')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Description'), 'Billing');
    await userEvent.type(screen.getByLabelText('Allowed addresses (optional)'), '203.0.113.4\n10.0.0.0/8');
    const servers = screen.getByRole('radiogroup', { name: 'Servers' });
    await userEvent.click(within(servers).getByLabelText('Read'));
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));

    expect(await screen.findByTestId('created-api-key')).toHaveTextContent(
      'ptla_ccccccccccccSECRETSECRETSECRET',
    );
    expect(fetch.calls[1]).toMatchObject({
      method: 'POST',
      url: '/api/application/api-keys',
      body: {
        description: 'Billing',
        allowed_ips: ['203.0.113.4', '10.0.0.0/8'],
        permissions: { ...none, servers: 1 },
      },
    });
    expect(screen.getByText('ptla_cccccccccccc')).toBeInTheDocument();
    // The form is empty again for the next key.
    expect(screen.getByLabelText('Description')).toHaveValue('');
  });

  it('refuses to create a key without a description, and shows the panel’s field errors', async () => {
    const fetch = stubFetch([
      { status: 200, body: wireList('api_key', []) },
      {
        status: 422,
        body: {
          errors: [
            wireFieldError(
              'allowed_ips.0',
              'ip',
              'The allowed_ips.0 field must be a valid IP address or CIDR range.',
            ),
          ],
        },
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<ApiKeysPage />, { path: '/admin/api' });
    await screen.findByText('There are no application keys yet.');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('Describe what the key is for.')).toBeInTheDocument();
    expect(fetch.calls).toHaveLength(1);

    await userEvent.type(screen.getByLabelText('Description'), 'Script');
    await userEvent.type(screen.getByLabelText('Allowed addresses (optional)'), 'not-an-ip');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(
      await screen.findByText('The allowed_ips.0 field must be a valid IP address or CIDR range.'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('created-api-key')).toBeNull();
  });

  it('deletes a key only after confirmation', async () => {
    const fetch = stubFetch([
      { status: 200, body: wireList('api_key', [key('ptla_dddddddddddd', 'Old script', null)]) },
      { status: 204 },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<ApiKeysPage />, { path: '/admin/api' });
    await screen.findByText('Old script');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('“Old script” (ptla_dddddddddddd) stops working at once.');
    expect(fetch.calls).toHaveLength(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete key' }));
    await screen.findByText('There are no application keys yet.');
    expect(fetch.calls[1]).toMatchObject({
      method: 'DELETE',
      url: '/api/application/api-keys/ptla_dddddddddddd',
    });
  });

  it('keeps the key and says why when the delete fails', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([
        { status: 200, body: wireList('api_key', [key('ptla_eeeeeeeeeeee', 'Kept', null)]) },
        {
          status: 404,
          body: wireNotFound(),
        },
      ]).fn,
    );
    renderAt(<ApiKeysPage />, { path: '/admin/api' });
    await screen.findByText('Kept');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete key' }),
    );
    expect(
      await screen.findByText('The requested resource could not be found on the server.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Kept')).toBeInTheDocument();
  });
});
