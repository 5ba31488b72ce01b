import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useGlobalStore } from '../../app/store.ts';
import { renderAt, stubFetch } from '../../test/render.tsx';
import { AccountApiPage } from './AccountApiPage.tsx';

const usedAt = new Date(2025, 0, 5, 14, 3);
const key = (identifier: string, description: string, lastUsed: string | null) => ({
  object: 'api_key',
  attributes: {
    identifier,
    description,
    allowed_ips: [],
    last_used_at: lastUsed,
    created_at: '2025-01-01T00:00:00.000000Z',
  },
});

beforeEach(() => useGlobalStore.setState({ flashes: [] }));
afterEach(() => vi.unstubAllGlobals());

describe('AccountApiPage', () => {
  it('shows the empty list text', async () => {
    vi.stubGlobal('fetch', stubFetch([{ status: 200, body: { object: 'list', data: [] } }]).fn);
    renderAt(<AccountApiPage />, { path: '/account/api' });
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByText('No API keys exist for this account.')).toBeInTheDocument();
    expect(document.title).toBe('Account API');
  });

  it('lists keys with Last used or Never', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([
        {
          status: 200,
          body: {
            object: 'list',
            data: [
              key('ptlc_aaaaaaaaaaa', 'Bot key', usedAt.toISOString()),
              key('ptlc_bbbbbbbbbbb', 'Unused', null),
            ],
          },
        },
      ]).fn,
    );
    renderAt(<AccountApiPage />, { path: '/account/api' });
    expect(await screen.findByText('Last used: Jan 5th, 2025 14:03')).toBeInTheDocument();
    expect(screen.getByText('Last used: Never')).toBeInTheDocument();
    expect(screen.getByText('ptlc_aaaaaaaaaaa')).toBeInTheDocument();
  });

  it('validates the description', async () => {
    vi.stubGlobal('fetch', stubFetch([{ status: 200, body: { object: 'list', data: [] } }]).fn);
    renderAt(<AccountApiPage />, { path: '/account/api' });
    await userEvent.type(screen.getByLabelText('Description'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('The description must be at least 4 characters.')).toBeInTheDocument();
  });

  it('creates a key, shows identifier + secret in a modal only the button closes, adds it to the list', async () => {
    const stub = stubFetch([
      { status: 200, body: { object: 'list', data: [] } },
      {
        status: 200,
        body: { ...key('ptlc_ccccccccccc', 'CI key', null), meta: { secret_token: 'S'.repeat(32) } },
      },
    ]);
    vi.stubGlobal('fetch', stub.fn);
    renderAt(<AccountApiPage />, { path: '/account/api' });
    await screen.findByText('No API keys exist for this account.');
    await userEvent.type(screen.getByLabelText('Description'), 'CI key');
    await userEvent.type(screen.getByLabelText('Allowed IPs'), '10.0.0.1{enter}{enter}192.168.0.0/24');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your API Key' });
    expect(within(dialog).getByTestId('created-api-key')).toHaveTextContent(
      `ptlc_ccccccccccc${'S'.repeat(32)}`,
    );
    expect(stub.calls[1]!.body).toEqual({
      description: 'CI key',
      allowed_ips: ['10.0.0.1', '192.168.0.0/24'],
    });
    await userEvent.keyboard('{Escape}');
    fireEvent.mouseDown(screen.getByTestId('modal-background'));
    expect(screen.getByRole('dialog', { name: 'Your API Key' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('CI key')).toBeInTheDocument();
    expect(screen.getByLabelText('Description')).toHaveValue('');
  });

  it('deletes a key after the confirmation', async () => {
    const stub = stubFetch([
      { status: 200, body: { object: 'list', data: [key('ptlc_ddddddddddd', 'Old key', null)] } },
      { status: 204 },
    ]);
    vi.stubGlobal('fetch', stub.fn);
    renderAt(<AccountApiPage />, { path: '/account/api' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete API key ptlc_ddddddddddd' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete API Key' });
    expect(
      within(dialog).getByText(
        'Are you sure you wish to delete this API key? All requests using it will immediately be invalidated and will fail.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete key' }));
    await waitFor(() => expect(screen.getByText('No API keys exist for this account.')).toBeInTheDocument());
    expect(stub.calls[1]).toMatchObject({
      method: 'DELETE',
      url: '/api/client/account/api-keys/ptlc_ddddddddddd',
    });
  });

  it('shows a failed creation as an Error flash', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([
        { status: 200, body: { object: 'list', data: [] } },
        {
          status: 422,
          body: {
            errors: [
              { code: 'ValidationException', detail: '"nope" is not a valid IP address or CIDR range.' },
            ],
          },
        },
      ]).fn,
    );
    renderAt(<AccountApiPage />, { path: '/account/api' });
    await userEvent.type(screen.getByLabelText('Description'), 'Bad ips');
    await userEvent.type(screen.getByLabelText('Allowed IPs'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('"nope" is not a valid IP address or CIDR range.')).toBeInTheDocument();
  });
});
