import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import type { ClientServerDatabase } from '@talon/shared/client/database-wire';
import databasesEn from '../../../../locales/en/databases.json';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { setTestServer } from '../../../test/server.ts';
import { gateFor } from '../gating.ts';
import { useServerStore } from '../store.ts';
import { DatabasesPage } from './DatabasesPage.tsx';

const PASSWORD = 'aB3=dE5@gH7+jK9^mN1.pQ2!';

const MAIN: ClientServerDatabase = {
  id: 'kz8Wq3Xa',
  host: { address: '10.0.0.9', port: 3306 },
  name: 's7_luckperms',
  username: 'u7_AbCdEfGhIj',
  connections_from: '%',
  max_connections: 0,
  relationships: { password: { object: 'database_password', attributes: { password: PASSWORD } } },
};
const LOGS: ClientServerDatabase = {
  id: 'p2Lm9Rtc',
  host: { address: 'db.example.com', port: 3307 },
  name: 's7_core_protect',
  username: 'u7_ZyXwVuTsRq',
  connections_from: '192.168.%',
  max_connections: null,
  relationships: { password: { object: 'database_password', attributes: { password: 'old-secret' } } },
};
/** As the panel answers without database.view_password. */
const withheld = (db: ClientServerDatabase): ClientServerDatabase => ({
  ...db,
  relationships: { password: { object: 'null_resource', attributes: null } },
});

const list = (dbs: ClientServerDatabase[]) => ({
  status: 200,
  body: { object: 'list', data: dbs.map((attributes) => ({ object: 'server_database', attributes })) },
});
const item = (attributes: ClientServerDatabase) => ({
  status: 200,
  body: { object: 'server_database', attributes },
});
const refusal = (status: number, code: string, detail: string) => ({
  status,
  body: { errors: [{ code, status: String(status), detail }] },
});

const ALL = [
  'database.read',
  'database.create',
  'database.update',
  'database.delete',
  'database.view_password',
];

beforeAll(() => {
  i18next.addResourceBundle('en', 'databases', databasesEn);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useServerStore.getState().clear();
  useGlobalStore.setState({ flashes: [] });
});

function setup(
  permissions: string[],
  answers: { status: number; body?: unknown }[],
  limit: number | null = 5,
) {
  const stub = stubFetch(answers);
  vi.stubGlobal('fetch', stub.fn);
  setTestServer(permissions, {
    feature_limits: { databases: limit as number, backups: 0, allocations: 1 },
  });
  renderAt(<DatabasesPage />);
  return stub;
}

const row = (id: string) => screen.getByTestId(`database-${id}`);
const dialog = () => screen.getByRole('dialog');
const newButton = () => screen.queryByRole('button', { name: 'New Database' });

async function openDetails(name: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Connection details of ${name}` }));
  return dialog();
}

describe('databases page', () => {
  it('lists each database with its name, host address:port, connections from and username', async () => {
    const stub = setup(['*'], [list([MAIN, LOGS])]);
    await screen.findByTestId('database-kz8Wq3Xa');
    expect(stub.calls[0]).toMatchObject({
      url: '/api/client/servers/abcd1234/databases?include=password',
      method: 'GET',
    });
    expect(document.title).toBe('Survival | Databases');
    expect(screen.getByRole('heading', { name: 'Databases' })).toBeInTheDocument();
    expect(within(row('kz8Wq3Xa')).getByText('s7_luckperms')).toBeInTheDocument();
    expect(within(row('kz8Wq3Xa')).getByTestId('database-endpoint')).toHaveTextContent('10.0.0.9:3306');
    expect(within(row('kz8Wq3Xa')).getByTestId('database-remote')).toHaveTextContent('%');
    expect(within(row('kz8Wq3Xa')).getByTestId('database-username')).toHaveTextContent('u7_AbCdEfGhIj');
    expect(within(row('p2Lm9Rtc')).getByTestId('database-endpoint')).toHaveTextContent('db.example.com:3307');
    expect(within(row('p2Lm9Rtc')).getByTestId('database-remote')).toHaveTextContent('192.168.%');
    // The password is never on the list itself.
    expect(screen.queryByText(PASSWORD)).toBeNull();
  });

  it("says 'It looks like you have no databases.' and 'X of Y databases have been allocated to this server.'", async () => {
    setup(['*'], [list([])], 2);
    expect(await screen.findByText('It looks like you have no databases.')).toBeInTheDocument();
    expect(screen.getByTestId('databases-limit')).toHaveTextContent(
      '0 of 2 databases have been allocated to this server.',
    );
    expect(newButton()).toBeInTheDocument();
  });

  it("says 'Databases cannot be created for this server.' with a limit of 0, and offers no create button", async () => {
    setup(['*'], [list([])], 0);
    expect(await screen.findByText('Databases cannot be created for this server.')).toBeInTheDocument();
    expect(screen.queryByText('It looks like you have no databases.')).toBeNull();
    expect(screen.queryByTestId('databases-limit')).toBeNull();
    expect(newButton()).toBeNull();
  });

  it('keeps the list and says creating is over when the limit was lowered to 0 after databases were made', async () => {
    setup(['*'], [list([MAIN])], 0);
    await screen.findByTestId('database-kz8Wq3Xa');
    expect(screen.getByTestId('databases-limit')).toHaveTextContent(
      'Databases cannot be created for this server.',
    );
    expect(screen.queryByText('It looks like you have no databases.')).toBeNull();
    expect(newButton()).toBeNull();
  });

  it('offers New Database only below the limit', async () => {
    setup(['*'], [list([MAIN, LOGS])], 2);
    await screen.findByTestId('database-kz8Wq3Xa');
    expect(screen.getByTestId('databases-limit')).toHaveTextContent(
      '2 of 2 databases have been allocated to this server.',
    );
    expect(newButton()).toBeNull();
  });

  it('offers New Database without a count when the server has no limit (null)', async () => {
    setup(['*'], [list([MAIN])], null);
    await screen.findByTestId('database-kz8Wq3Xa');
    expect(screen.queryByTestId('databases-limit')).toBeNull();
    expect(newButton()).toBeInTheDocument();
  });

  it('offers New Database only with database.create, Delete only with database.delete', async () => {
    setup(['database.read'], [list([MAIN])]);
    await screen.findByTestId('database-kz8Wq3Xa');
    expect(newButton()).toBeNull();
    expect(within(row('kz8Wq3Xa')).queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(
      within(row('kz8Wq3Xa')).getByRole('button', { name: 'Connection details of s7_luckperms' }),
    ).toBeInTheDocument();
  });

  it("shows a failed load under 'databases' with a way to try again", async () => {
    const stub = setup(
      ['*'],
      [refusal(403, 'AccessDeniedHttpException', 'This action is unauthorized.'), list([MAIN])],
    );
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('database-kz8Wq3Xa');
    expect(stub.calls).toHaveLength(2);
  });
});

describe('new database modal', () => {
  it('fills in % for connections from, checks both fields with the spec’s messages, then sends them', async () => {
    const created: ClientServerDatabase = { ...MAIN, id: 'n3wOne00', name: 's7_economy' };
    const stub = setup(['*'], [list([]), item(created)]);
    fireEvent.click(await screen.findByRole('button', { name: 'New Database' }));
    expect(within(dialog()).getByRole('heading', { name: 'Create new database' })).toBeInTheDocument();
    const name = within(dialog()).getByLabelText('Database Name');
    const remote = within(dialog()).getByLabelText('Connections From');
    expect(remote).toHaveValue('%');
    // Focus starts in the first field (keyboard use).
    expect(name).toHaveFocus();

    const submit = () => fireEvent.click(within(dialog()).getByRole('button', { name: 'Create Database' }));
    submit();
    expect(await within(dialog()).findByText('A database name must be provided.')).toBeInTheDocument();
    const messageFor = async (field: HTMLElement, value: string, message: string) => {
      fireEvent.change(field, { target: { value } });
      fireEvent.blur(field);
      expect(await within(dialog()).findByText(message)).toBeInTheDocument();
    };
    await messageFor(name, 'ab', 'Database name must be at least 3 characters.');
    await messageFor(name, 'x'.repeat(49), 'Database name must not exceed 48 characters.');
    await messageFor(
      name,
      'my db!',
      'Database name should only contain alphanumeric characters, underscores, dashes, and/or periods.',
    );
    await messageFor(remote, '', 'A connection value must be provided.');
    await messageFor(remote, '10.0.0.0/8', 'A valid connection address must be provided.');
    await messageFor(remote, '1.2.3.4.5', 'A valid connection address must be provided.');
    await messageFor(remote, '1234', 'A valid connection address must be provided.');
    // Nothing was sent while a field was wrong.
    expect(stub.calls).toHaveLength(1);

    fireEvent.change(name, { target: { value: 'economy.v2' } });
    fireEvent.change(remote, { target: { value: '192.168.%' } });
    submit();
    await screen.findByTestId('database-n3wOne00');
    expect(stub.calls[1]).toMatchObject({
      url: '/api/client/servers/abcd1234/databases?include=password',
      method: 'POST',
      body: { database: 'economy.v2', remote: '192.168.%' },
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('databases-limit')).toHaveTextContent('1 of 5 databases');
  });

  it("shows the panel's refusal under 'database:create' in the modal and keeps it open", async () => {
    setup(
      ['*'],
      [
        list([]),
        refusal(
          400,
          'TooManyDatabasesException',
          'Operation aborted: creating a new database would put this server over the defined limit.',
        ),
      ],
    );
    fireEvent.click(await screen.findByRole('button', { name: 'New Database' }));
    fireEvent.change(within(dialog()).getByLabelText('Database Name'), { target: { value: 'economy' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Create Database' }));
    expect(
      await within(dialog()).findByText(
        'Operation aborted: creating a new database would put this server over the defined limit.',
      ),
    ).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['database:create']);
    expect(screen.getByText('It looks like you have no databases.')).toBeInTheDocument();
    // Closing the modal clears its message.
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(useGlobalStore.getState().flashes).toEqual([]);
  });
});

describe('connection details modal', () => {
  it('shows endpoint, username, the password and a copyable JDBC connection string with database.view_password', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    setup(['*'], [list([MAIN])]);
    const modal = await openDetails('s7_luckperms');
    expect(within(modal).getByRole('heading', { name: 'Database connection details' })).toBeInTheDocument();
    expect(within(modal).getByTestId('details-endpoint')).toHaveTextContent('10.0.0.9:3306');
    expect(within(modal).getByTestId('details-remote')).toHaveTextContent('%');
    expect(within(modal).getByTestId('details-username')).toHaveTextContent('u7_AbCdEfGhIj');
    expect(within(modal).getByTestId('details-password')).toHaveTextContent(PASSWORD);
    const jdbc = `jdbc:mysql://u7_AbCdEfGhIj:${encodeURIComponent(PASSWORD)}@10.0.0.9:3306/s7_luckperms`;
    expect(within(modal).getByTestId('details-jdbc')).toHaveTextContent(jdbc);

    fireEvent.click(within(modal).getByTestId('details-password'));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(PASSWORD));
    fireEvent.click(within(modal).getByTestId('details-jdbc'));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(jdbc));
    expect(await screen.findByText(`Copied "${jdbc}" to clipboard.`)).toHaveAttribute('role', 'status');
  });

  it('shows no password (and none in the connection string) without database.view_password', async () => {
    setup(['database.read', 'database.update'], [list([withheld(MAIN)])]);
    const modal = await openDetails('s7_luckperms');
    expect(within(modal).queryByTestId('details-password')).toBeNull();
    expect(within(modal).getByTestId('details-password-hidden')).toHaveTextContent(
      'You do not have permission to view this password.',
    );
    expect(within(modal).getByTestId('details-jdbc')).toHaveTextContent(
      'jdbc:mysql://u7_AbCdEfGhIj@10.0.0.9:3306/s7_luckperms',
    );
  });

  it('keeps a password the page still holds off the screen once database.view_password is gone', async () => {
    setup(ALL, [list([MAIN])]);
    await screen.findByTestId('database-kz8Wq3Xa');
    const server = useServerStore.getState();
    useServerStore.setState({ ...server, permissions: ['database.read'] });
    const modal = await openDetails('s7_luckperms');
    expect(within(modal).queryByText(PASSWORD, { exact: false })).toBeNull();
  });

  it('offers Rotate Password only with database.update', async () => {
    setup(['database.read', 'database.view_password'], [list([MAIN])]);
    const modal = await openDetails('s7_luckperms');
    expect(within(modal).getByTestId('details-password')).toHaveTextContent(PASSWORD);
    expect(within(modal).queryByRole('button', { name: 'Rotate Password' })).toBeNull();
  });

  it('rotates the password and shows the new one at once', async () => {
    const rotated: ClientServerDatabase = {
      ...MAIN,
      relationships: { password: { object: 'database_password', attributes: { password: 'n3w-Secret' } } },
    };
    const stub = setup(ALL, [list([MAIN]), item(rotated)]);
    const modal = await openDetails('s7_luckperms');
    fireEvent.click(within(modal).getByRole('button', { name: 'Rotate Password' }));
    await waitFor(() =>
      expect(within(dialog()).getByTestId('details-password')).toHaveTextContent('n3w-Secret'),
    );
    expect(stub.calls[1]).toMatchObject({
      url: '/api/client/servers/abcd1234/databases/kz8Wq3Xa/rotate-password',
      method: 'POST',
    });
  });

  it("shows a failed rotation under 'database-connection-modal' and keeps the old password", async () => {
    setup(ALL, [list([MAIN]), refusal(500, 'HttpException', 'The database host could not be reached.')]);
    const modal = await openDetails('s7_luckperms');
    fireEvent.click(within(modal).getByRole('button', { name: 'Rotate Password' }));
    expect(await within(dialog()).findByText('The database host could not be reached.')).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['database-connection-modal']);
    expect(within(dialog()).getByTestId('details-password')).toHaveTextContent(PASSWORD);
  });
});

describe('delete confirmation', () => {
  async function openDelete(name: string) {
    fireEvent.click(await screen.findByRole('button', { name: `Delete the database ${name}` }));
    return dialog();
  }

  it('needs the name after the first underscore or the full name, with the spec’s message', async () => {
    const stub = setup(ALL, [list([LOGS, MAIN]), { status: 204 }]);
    const modal = await openDelete('s7_core_protect');
    expect(within(modal).getByText(/permanently delete the s7_core_protect database/)).toBeInTheDocument();
    const field = within(modal).getByLabelText('Confirm Database Name');
    const button = within(modal).getByRole('button', { name: 'Delete Database' });
    expect(button).toBeDisabled();
    // Not the part after the last underscore, not the prefix.
    for (const wrong of ['protect', 's7', 's7_core', 'S7_CORE_PROTECT']) {
      fireEvent.change(field, { target: { value: wrong } });
      fireEvent.blur(field);
      expect(await within(modal).findByText('The database name must be provided.')).toBeInTheDocument();
      expect(button).toBeDisabled();
    }
    fireEvent.change(field, { target: { value: 's7_core_protect' } });
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.change(field, { target: { value: 'core_protect' } });
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);
    await waitFor(() => expect(screen.queryByTestId('database-p2Lm9Rtc')).toBeNull());
    expect(stub.calls[1]).toMatchObject({
      url: '/api/client/servers/abcd1234/databases/p2Lm9Rtc',
      method: 'DELETE',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('database-kz8Wq3Xa')).toBeInTheDocument();
  });

  it("shows a refused delete under 'database:delete' and keeps the database", async () => {
    setup(ALL, [
      list([MAIN]),
      refusal(404, 'NotFoundHttpException', 'The requested resource was not found for this server.'),
    ]);
    const modal = await openDelete('s7_luckperms');
    fireEvent.change(within(modal).getByLabelText('Confirm Database Name'), {
      target: { value: 'luckperms' },
    });
    await waitFor(() => expect(within(modal).getByRole('button', { name: 'Delete Database' })).toBeEnabled());
    fireEvent.click(within(modal).getByRole('button', { name: 'Delete Database' }));
    expect(
      await within(dialog()).findByText('The requested resource was not found for this server.'),
    ).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['database:delete']);
    expect(screen.getByTestId('database-kz8Wq3Xa')).toBeInTheDocument();
  });
});

describe('databases tab gating (spec 001 §2)', () => {
  it('opens with any database permission and is denied without one', () => {
    expect(gateFor('databases', ['database.read'])).toBe('allowed');
    expect(gateFor('databases', ['database.create'])).toBe('allowed');
    expect(gateFor('databases', ['*'])).toBe('allowed');
    expect(gateFor('databases', ['file.read', 'user.read'])).toBe('denied');
  });
});
