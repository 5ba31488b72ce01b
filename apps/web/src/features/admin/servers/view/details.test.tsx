import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatMib } from '../../format.ts';
import { signInForTest, wireFieldError, wireList, wireNotFound, wireUser } from '../../testing.ts';
import { SERVER_PATH, fakeApi, renderServerView, wireEgg, wireServer } from './testing.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

describe('admin server view: About', () => {
  it('says what the server is, who owns it and where it runs, with its status and a link to the server area', async () => {
    fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer({ status: 'install_failed' }) },
      'GET /api/application/nests/1/eggs/5': { status: 200, body: wireEgg(5, 'Paper') },
    });
    renderServerView();
    expect(await screen.findByRole('heading', { name: 'Lobby' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open in the server area' })).toHaveAttribute(
      'href',
      '/server/c0ffee00',
    );
    expect(screen.getByRole('link', { name: 'c0ffee00' })).toHaveAttribute('href', '/server/c0ffee00');
    expect(screen.getByRole('link', { name: 'alice (alice@example.com)' })).toHaveAttribute(
      'href',
      '/admin/users/view/3',
    );
    expect(screen.getByRole('link', { name: 'local' })).toHaveAttribute('href', '/admin/nodes/view/1');
    expect(screen.getByText('10.0.0.5:25565')).toBeInTheDocument();
    expect(await screen.findByText('Paper')).toBeInTheDocument();
    expect(screen.getAllByText('Install failed').length).toBeGreaterThan(0);
    expect(screen.getByText('The install script failed: read its log under Last install, fix the cause, then reinstall.')).toBeInTheDocument();
    expect(screen.getByText(formatMib(1024))).toBeInTheDocument();
  });

  it('says when the server does not exist', async () => {
    fakeApi({
      [`GET ${SERVER_PATH}`]: {
        status: 404,
        body: wireNotFound(),
      },
    });
    renderServerView();
    expect(await screen.findByRole('alert')).toBeInTheDocument();
  });
});

describe('admin server view: Details', () => {
  it('checks the name before sending anything', async () => {
    const api = fakeApi({ [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() } });
    renderServerView('details');
    const name = await screen.findByLabelText('Server name');
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('Give the server a name.')).toBeInTheDocument();
    expect(api.made('PATCH', `${SERVER_PATH}/details`)).toHaveLength(0);
  });

  it('sends all four fields, changes the owner with the picker and says the old owner lost access', async () => {
    const api = fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      'GET /api/application/users/3': {
        status: 200,
        body: { object: 'user', attributes: wireUser(3, 'alice') },
      },
      'GET /api/application/users': (call) => ({
        status: 200,
        body: wireList(
          'user',
          call.query.get('search') === 'bo'
            ? [wireUser(4, 'bob')]
            : [wireUser(3, 'alice'), wireUser(4, 'bob')],
        ),
      }),
      [`PATCH ${SERVER_PATH}/details`]: { status: 200, body: wireServer({ user: 4, name: 'Lobby 2' }) },
    });
    renderServerView('details');
    expect(
      await screen.findByText(/Changing the owner signs the old owner out of this server/),
    ).toBeInTheDocument();
    const name = screen.getByLabelText('Server name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Lobby 2');
    const owner = screen.getByRole('combobox', { name: 'Owner' });
    await userEvent.clear(owner);
    await userEvent.type(owner, 'bo');
    const listbox = await screen.findByRole('listbox', { name: 'Owner' });
    await userEvent.click(await within(listbox).findByText('bob'));
    await userEvent.click(screen.getByRole('button', { name: 'Save details' }));

    expect(
      await screen.findByText(
        'The details were saved. The previous owner no longer has access to this server.',
      ),
    ).toBeInTheDocument();
    expect(api.made('PATCH', `${SERVER_PATH}/details`)[0]!.body).toEqual({
      name: 'Lobby 2',
      user: 4,
      external_id: null,
      description: 'The hub',
    });
  });

  it("shows the API's 422 beside its field", async () => {
    fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      'GET /api/application/users/3': {
        status: 200,
        body: { object: 'user', attributes: wireUser(3, 'alice') },
      },
      [`PATCH ${SERVER_PATH}/details`]: {
        status: 422,
        body: {
          errors: [wireFieldError('external_id', 'unique', 'The external id has already been taken.')],
        },
      },
    });
    renderServerView('details');
    await userEvent.type(await screen.findByLabelText('External ID'), 'whmcs-1');
    await userEvent.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('The external id has already been taken.')).toBeInTheDocument();
    expect(screen.getByLabelText('External ID')).toHaveAttribute('aria-invalid', 'true');
  });
});
