import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signInForTest, wireDatabaseHost, wireList } from '../../testing.ts';
import { SERVER_PATH, fakeApi, renderServerView, wireServer } from './testing.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const DATABASES = `${SERVER_PATH}/databases`;
const HOSTS = '/api/application/database-hosts';

/** A host on no node (offered to every server). */
function wireHost(id: number, name: string) {
  return wireDatabaseHost(id, name, { node: null, node_ids: [] });
}

function wireDatabase(id: number, name: string, password: string) {
  return {
    id,
    server: 7,
    host: 1,
    database: name,
    username: `u7_${id}abc`,
    remote: '%',
    max_connections: null,
    created_at: '2025-01-01T00:00:00+00:00',
    updated_at: '2025-01-01T00:00:00+00:00',
    relationships: {
      password: { object: 'database_password', attributes: { password } },
      host: { object: 'database_host', attributes: wireHost(1, 'maria') },
    },
  };
}

const serverDatabases = (...items: ReturnType<typeof wireDatabase>[]) => ({
  status: 200,
  body: wireList('server_database', items),
});

describe('admin server view: Databases', () => {
  it('says when the server has none, and when there is no host to create one on', async () => {
    fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${DATABASES}`]: serverDatabases(),
      [`GET ${HOSTS}`]: { status: 200, body: wireList('database_host', []) },
    });
    renderServerView('databases');
    expect(await screen.findByText('This server has no databases.')).toBeInTheDocument();
    expect(
      await screen.findByText('There are no database hosts. Add one under Database hosts first.'),
    ).toBeInTheDocument();
  });

  it('says why the list could not be loaded', async () => {
    fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${DATABASES}`]: {
        status: 403,
        body: {
          errors: [
            { code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' },
          ],
        },
      },
      [`GET ${HOSTS}`]: { status: 200, body: wireList('database_host', [wireHost(1, 'maria')]) },
    });
    renderServerView('databases');
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
  });

  it('hides passwords until revealed, and a rotation shows the new one', async () => {
    const api = fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${DATABASES}`]: [
        serverDatabases(wireDatabase(21, 's7_world', 'old-secret')),
        serverDatabases(wireDatabase(21, 's7_world', 'new-secret')),
      ],
      [`GET ${HOSTS}`]: { status: 200, body: wireList('database_host', [wireHost(1, 'maria')]) },
      [`POST ${DATABASES}/21/reset-password`]: { status: 204 },
    });
    renderServerView('databases');
    const reveal = await screen.findByRole('button', { name: 'Show password of s7_world' });
    expect(screen.queryByText('old-secret')).not.toBeInTheDocument();
    expect(api.made('GET', DATABASES)[0]!.query.get('include')).toBe('host,password');
    await userEvent.click(reveal);
    expect(screen.getByText('old-secret')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Hide password of s7_world' }));
    expect(screen.queryByText('old-secret')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Rotate password of s7_world' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the password of s7_world?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rotate password' }));
    expect(await screen.findByText('new-secret')).toBeInTheDocument();
    expect(
      screen.getByText('The password of s7_world was changed. The new one is shown in the list.'),
    ).toBeInTheDocument();
    expect(api.made('POST', `${DATABASES}/21/reset-password`)).toHaveLength(1);
  });

  it('deletes a database only once confirmed, naming it, and shows a refusal in words', async () => {
    const api = fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${DATABASES}`]: [serverDatabases(wireDatabase(21, 's7_world', 'x')), serverDatabases()],
      [`GET ${HOSTS}`]: { status: 200, body: wireList('database_host', [wireHost(1, 'maria')]) },
      [`DELETE ${DATABASES}/21`]: [
        {
          status: 502,
          body: {
            errors: [
              {
                code: 'DatabaseHostConnectionException',
                status: '502',
                detail: 'The database host maria could not be reached (ECONNREFUSED).',
              },
            ],
          },
        },
        { status: 204 },
      ],
    });
    renderServerView('databases');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete database s7_world' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the database s7_world?' });
    expect(
      within(dialog).getByText(/The database s7_world and everything in it will be deleted/),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.made('DELETE', `${DATABASES}/21`)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete database s7_world' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('The database host maria could not be reached (ECONNREFUSED).'),
    ).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The database s7_world was deleted.')).toBeInTheDocument();
    expect(await screen.findByText('This server has no databases.')).toBeInTheDocument();
  });

  it('creates a database on the chosen host after checking the name and the remote', async () => {
    const api = fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${DATABASES}`]: [serverDatabases(), serverDatabases(wireDatabase(22, 's7_shop', 'fresh'))],
      [`GET ${HOSTS}`]: {
        status: 200,
        body: wireList('database_host', [wireHost(1, 'maria'), wireHost(2, 'backup')]),
      },
      [`POST ${DATABASES}`]: {
        status: 201,
        body: { object: 'server_database', attributes: wireDatabase(22, 's7_shop', 'fresh') },
      },
    });
    renderServerView('databases');
    const name = await screen.findByLabelText('Database name');
    expect(screen.getByLabelText('Connections from')).toHaveValue('%');
    await userEvent.type(name, 'shop!');
    await userEvent.clear(screen.getByLabelText('Connections from'));
    await userEvent.type(screen.getByLabelText('Connections from'), 'anywhere');
    await userEvent.click(screen.getByRole('button', { name: 'Create database' }));
    expect(
      await screen.findByText(
        'Database name should only contain alphanumeric characters, underscores, dashes, and/or periods.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('A valid connection address must be provided.')).toBeInTheDocument();
    expect(api.made('POST', DATABASES)).toHaveLength(0);

    await userEvent.clear(name);
    await userEvent.type(name, 'shop');
    await userEvent.clear(screen.getByLabelText('Connections from'));
    await userEvent.type(screen.getByLabelText('Connections from'), '10.0.%');
    await userEvent.selectOptions(screen.getByLabelText('Database host'), 'backup (127.0.0.1:3306)');
    await userEvent.click(screen.getByRole('button', { name: 'Create database' }));
    expect(await screen.findByText('The database s7_shop was created.')).toBeInTheDocument();
    expect(api.made('POST', DATABASES)[0]!.body).toEqual({ database: 'shop', remote: '10.0.%', host: 2 });
    // The new database's password is shown at once.
    expect(await screen.findByText('fresh')).toBeInTheDocument();
  });

  it("shows a refused creation beside the form, in the API's words", async () => {
    fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${DATABASES}`]: serverDatabases(),
      [`GET ${HOSTS}`]: { status: 200, body: wireList('database_host', [wireHost(1, 'maria')]) },
      [`POST ${DATABASES}`]: {
        status: 400,
        body: {
          errors: [
            {
              code: 'TooManyDatabasesException',
              status: '400',
              detail:
                'Operation aborted: creating a new database would put this server over the defined limit.',
            },
          ],
        },
      },
    });
    renderServerView('databases');
    await userEvent.type(await screen.findByLabelText('Database name'), 'shop');
    await userEvent.click(screen.getByRole('button', { name: 'Create database' }));
    const form = screen.getByRole('region', { name: 'New database' });
    expect(
      await within(form).findByText(
        'Operation aborted: creating a new database would put this server over the defined limit.',
      ),
    ).toBeInTheDocument();
  });
});
