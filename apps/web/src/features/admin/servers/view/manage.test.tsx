import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signInForTest } from '../../testing.ts';
import { SERVER_PATH, fakeApi, renderServerView, wireServer } from './testing.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

describe('admin server view: Manage', () => {
  it('suspends only once confirmed, then offers to unsuspend', async () => {
    const api = fakeApi({
      [`GET ${SERVER_PATH}`]: [
        { status: 200, body: wireServer() },
        { status: 200, body: wireServer({ status: 'suspended', suspended: true }) },
      ],
      [`POST ${SERVER_PATH}/suspend`]: { status: 204 },
    });
    renderServerView('manage');
    await userEvent.click(await screen.findByRole('button', { name: 'Suspend server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend Lobby?' });
    expect(
      within(dialog).getByText(/cannot be started until it is unsuspended; its owner sees a notice/),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));

    expect(await screen.findByText('The server is suspended.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Unsuspend server' })).toBeInTheDocument();
    expect(screen.getAllByText('Suspended').length).toBeGreaterThan(0);
    expect(api.made('POST', `${SERVER_PATH}/suspend`)).toHaveLength(1);
  });

  it("keeps the dialog open with the API's words when suspending fails", async () => {
    fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`POST ${SERVER_PATH}/suspend`]: {
        status: 409,
        body: {
          errors: [
            {
              code: 'ConflictHttpException',
              status: '409',
              detail: 'Cannot toggle suspension status on a server that is currently being transferred.',
            },
          ],
        },
      },
    });
    renderServerView('manage');
    await userEvent.click(await screen.findByRole('button', { name: 'Suspend server' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(
      await within(dialog).findByText(
        'Cannot toggle suspension status on a server that is currently being transferred.',
      ),
    ).toBeInTheDocument();
  });

  it('unsuspends and reinstalls once confirmed', async () => {
    const api = fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer({ status: 'suspended', suspended: true }) },
      [`POST ${SERVER_PATH}/unsuspend`]: { status: 204 },
      [`POST ${SERVER_PATH}/reinstall`]: { status: 204 },
    });
    renderServerView('manage');
    await userEvent.click(await screen.findByRole('button', { name: 'Unsuspend server' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Unsuspend Lobby?' })).getByRole('button', {
        name: 'Unsuspend',
      }),
    );
    expect(await screen.findByText('The server is no longer suspended.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Reinstall server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reinstall Lobby?' });
    expect(
      within(dialog).getByText('The install script runs again; files may be overwritten.'),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reinstall' }));
    expect(await screen.findByText('The server is being reinstalled.')).toBeInTheDocument();
    expect(api.made('POST', `${SERVER_PATH}/unsuspend`)).toHaveLength(1);
    expect(api.made('POST', `${SERVER_PATH}/reinstall`)).toHaveLength(1);
  });

  it("deletes only after the server's name is typed, then goes to the servers list", async () => {
    const api = fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`DELETE ${SERVER_PATH}`]: {
        status: 502,
        body: {
          errors: [
            {
              code: 'DaemonConnectionException',
              status: '502',
              detail: 'The node could not be reached (ECONNREFUSED).',
            },
          ],
        },
      },
      [`DELETE ${SERVER_PATH}/force`]: { status: 204 },
    });
    renderServerView('manage');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete server' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Lobby?' });
    const confirm = within(dialog).getByRole('button', { name: 'Yes, delete Lobby' });
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText("Type the server's name to confirm"), 'Lobb');
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText("Type the server's name to confirm"), 'y');
    await userEvent.click(confirm);
    expect(
      await within(dialog).findByText('The node could not be reached (ECONNREFUSED).'),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Force delete server' }));
    dialog = await screen.findByRole('dialog', { name: 'Force delete Lobby?' });
    expect(within(dialog).getByText(/even if the node cannot be reached/)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText("Type the server's name to confirm"), 'Lobby');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, force delete Lobby' }));
    expect(await screen.findByText('The servers list')).toBeInTheDocument();
    expect(api.made('DELETE', SERVER_PATH)).toHaveLength(1);
    expect(api.made('DELETE', `${SERVER_PATH}/force`)).toHaveLength(1);
  });
});
