import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signInForTest } from '../../testing.ts';
import { SERVER_PATH, fakeApi, renderServerView, wireEgg, wireServer } from './testing.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const LOG_PATH = `${SERVER_PATH}/install-log`;
const log = (content: string | null) => ({
  status: 200,
  body: { object: 'server_install_log', attributes: { content } },
});
const egg = { 'GET /api/application/nests/1/eggs/5': { status: 200, body: wireEgg(5, 'Paper') } };

describe('admin server view: the last install', () => {
  it("shows a failed install's log, says it failed, and reinstalls from beside it", async () => {
    const api = fakeApi({
      ...egg,
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer({ status: 'install_failed' }) },
      [`GET ${LOG_PATH}`]: log(
        'output:\ncurl: (6) Could not resolve host\ninstall script exited with code 6',
      ),
      [`POST ${SERVER_PATH}/reinstall`]: { status: 204 },
    });
    renderServerView();
    const text = await screen.findByLabelText('Install log of Lobby');
    expect(text.textContent).toContain('curl: (6) Could not resolve host');
    expect(screen.getByText(/^The last install failed\./u)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Reinstall server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reinstall Lobby?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reinstall' }));
    expect(await screen.findByText('The server is being reinstalled.')).toBeInTheDocument();
    expect(api.made('POST', `${SERVER_PATH}/reinstall`)).toHaveLength(1);
    // Read again after the reinstall (the view's queries are refreshed).
    expect(api.made('GET', LOG_PATH).length).toBeGreaterThan(1);
  });

  it('says when the node has no log for the server', async () => {
    fakeApi({
      ...egg,
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${LOG_PATH}`]: log(null),
    });
    renderServerView();
    expect(
      await screen.findByText(
        'The node has no install log for this server: it has not run an install script there yet, or skipped it.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/^The last install failed\./u)).toBeNull();
  });

  it('says in words when the node cannot be reached, and still offers Reinstall', async () => {
    fakeApi({
      ...egg,
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer({ status: 'install_failed' }) },
      [`GET ${LOG_PATH}`]: {
        status: 504,
        body: {
          errors: [
            {
              code: 'DaemonConnectionException',
              status: '504',
              detail:
                'Could not establish a connection to the machine running this server (node "local"). Please try again.',
            },
          ],
        },
      },
    });
    renderServerView();
    expect(
      await screen.findByText(
        'Could not establish a connection to the machine running this server (node "local"). Please try again.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reinstall server' })).toBeEnabled();
  });
});
