import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../../test/render.tsx';
import {
  routeFetch,
  signInForTest,
  wireFieldError,
  wireList,
  wireNode,
  wireUser,
  type FetchRoute,
} from '../../testing.ts';
import { wireAllocation, wireEggWithVariables, wireServer } from '../serverFixtures.ts';
import { NewServerPage } from './NewServerPage.tsx';

function baseRoutes(extra: FetchRoute[] = []): FetchRoute[] {
  const egg = wireEggWithVariables();
  return [
    ...extra,
    { url: '/api/application/users', status: 200, body: wireList('user', [wireUser(3, 'alice')]) },
    { url: '/api/application/nodes', status: 200, body: wireList('node', [wireNode(1, 'Local')]) },
    {
      url: '/api/application/nodes/1/allocations',
      status: 200,
      body: wireList('allocation', [wireAllocation(11, 25565), wireAllocation(12, 25566)]),
    },
    {
      url: '/api/application/locations',
      status: 200,
      body: wireList('location', [
        { id: 1, short: 'home', long: 'My house', created_at: '2025-01-05T10:00:00+00:00', updated_at: null },
      ]),
    },
    {
      url: '/api/application/nests',
      status: 200,
      body: wireList('nest', [
        {
          id: 1,
          uuid: 'nest-1',
          author: 'talon@example.com',
          name: 'Games',
          description: null,
          created_at: '2025-01-05T10:00:00+00:00',
          updated_at: '2025-01-05T10:00:00+00:00',
        },
      ]),
    },
    { url: '/api/application/nests/1/eggs', status: 200, body: wireList('egg', [egg]) },
    { url: '/api/application/nests/1/eggs/2', status: 200, body: { object: 'egg', attributes: egg } },
  ];
}

async function chooseOwner() {
  const owner = screen.getByRole('combobox', { name: 'Owner' });
  await userEvent.type(owner, 'ali');
  await userEvent.click(await screen.findByRole('option', { name: /alice/ }));
}

/** Waits until the egg has filled the form in (its variables are shown). */
async function eggLoaded() {
  await waitFor(() => expect(screen.getByLabelText('Max players')).toHaveValue('20'));
  await waitFor(() => expect(screen.getByLabelText('Primary address')).toHaveValue('11'));
}

/** The API's answer to the create: the new server "Survival" (id 9). */
const CREATED: FetchRoute = {
  method: 'POST',
  url: '/api/application/servers',
  status: 201,
  body: { object: 'server', attributes: wireServer(9, 'Survival') },
};

/** Opens the form on the fake API (plus `extra` routes, tried first) and waits for the egg. */
async function openForm(extra: FetchRoute[] = []) {
  const fetch = routeFetch(baseRoutes(extra));
  vi.stubGlobal('fetch', fetch.fn);
  const { router } = renderAt(<NewServerPage />, { path: '/admin/servers/new' });
  await eggLoaded();
  return { fetch, router };
}

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

describe('admin new server form', () => {
  it('creates a server with owner and name only: node, address, egg, image, command and variables come prefilled', async () => {
    const { fetch, router } = await openForm([CREATED]);
    expect(screen.getByLabelText('Node')).toHaveValue('1');
    expect(screen.getByLabelText('Egg')).toHaveValue('2');
    expect(screen.getByLabelText('Docker image')).toHaveValue('ghcr.io/talon/node:20');
    expect(screen.getByLabelText('Startup command')).toHaveValue('node server.js --port {{SERVER_PORT}}');
    expect(screen.getByLabelText('Game mode')).toHaveValue('survival');
    expect(screen.getByText('How the world plays.')).toBeInTheDocument();

    await chooseOwner();
    await userEvent.type(screen.getByLabelText('Server name'), 'Survival');
    await userEvent.click(
      within(screen.getByRole('group', { name: 'Additional addresses' })).getByLabelText('127.0.0.1:25566'),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Create server' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/servers/view/9'));
    const post = fetch.calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      name: 'Survival',
      user: 3,
      egg: 2,
      docker_image: 'ghcr.io/talon/node:20',
      startup: 'node server.js --port {{SERVER_PORT}}',
      environment: { GAME_MODE: 'survival', MAX_PLAYERS: '20' },
      limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 0, threads: null },
      // The allocation limit counts the primary address: 1, none to add.
      feature_limits: { databases: 0, allocations: 1, backups: 1 },
      allocation: { default: 11, additional: [12] },
      external_id: null,
      description: null,
      oom_disabled: true,
      skip_scripts: false,
      start_on_completion: true,
    });
    // The free addresses were asked with the unassigned filter.
    expect(
      fetch.calls.some(
        (c) => c.url.includes('/nodes/1/allocations') && c.url.includes('filter%5Bserver_id%5D=false'),
      ),
    ).toBe(true);
  });

  it('checks the fields and the egg variables with their rules before sending', async () => {
    const { fetch } = await openForm();
    await userEvent.clear(screen.getByLabelText('Max players'));
    await userEvent.type(screen.getByLabelText('Max players'), '500');
    await userEvent.clear(screen.getByLabelText('Block IO weight'));
    await userEvent.type(screen.getByLabelText('Block IO weight'), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Create server' }));

    expect(await screen.findByText('Choose the owner of the server.')).toBeInTheDocument();
    expect(screen.getByText('Give the server a name.')).toBeInTheDocument();
    // The panel's own message for the variable's rule (shared rules).
    expect(screen.getByText('The Max players variable must be between 1 and 100.')).toBeInTheDocument();
    expect(screen.getByText('The block IO weight must be between 10 and 1000.')).toBeInTheDocument();
    expect(screen.getByLabelText('Max players')).toHaveAttribute('aria-invalid', 'true');
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);
    // The first field in error (the owner) gets the focus.
    expect(screen.getByRole('combobox', { name: 'Owner' })).toHaveFocus();
  });

  it('shows the API’s 422 errors beside their fields, variables included', async () => {
    const { router } = await openForm([
      {
        method: 'POST',
        url: '/api/application/servers',
        status: 422,
        body: {
          errors: [
            wireFieldError('external_id', 'unique', 'The external id has already been taken.'),
            wireFieldError('environment.GAME_MODE', 'in', 'The Game mode variable is not valid here.'),
            wireFieldError(
              'allocation.additional.0',
              'exists',
              'The selected allocation.additional.0 is invalid.',
            ),
          ],
        },
      },
    ]);
    await chooseOwner();
    await userEvent.type(screen.getByLabelText('Server name'), 'Survival');
    await userEvent.type(screen.getByLabelText('External ID'), 'whmcs-1');
    await userEvent.click(screen.getByRole('button', { name: 'Create server' }));

    const external = screen.getByLabelText('External ID');
    await waitFor(() => expect(external).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('The external id has already been taken.')).toBeInTheDocument();
    expect(screen.getByText('The Game mode variable is not valid here.')).toBeInTheDocument();
    expect(screen.getByLabelText('Game mode')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('The selected allocation.additional.0 is invalid.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/servers/new');
  });

  it('deploys by location and says in words when no node has room', async () => {
    const { fetch } = await openForm([
      {
        method: 'POST',
        url: '/api/application/servers',
        status: 400,
        body: {
          errors: [
            {
              code: 'NoViableNodeException',
              status: '400',
              detail:
                'No nodes satisfying the requirements specified for automatic deployment could be found.',
            },
          ],
        },
      },
    ]);
    await chooseOwner();
    await userEvent.type(screen.getByLabelText('Server name'), 'Survival');
    await userEvent.click(screen.getByLabelText('Automatically, in chosen locations'));
    await userEvent.click(await screen.findByLabelText('home — My house'));
    await userEvent.type(screen.getByLabelText('Ports'), '25565-25600, 27015');
    await userEvent.click(screen.getByLabelText('Dedicated IP address'));
    await userEvent.click(screen.getByRole('button', { name: 'Create server' }));

    expect(
      await screen.findByText(
        'No nodes satisfying the requirements specified for automatic deployment could be found.',
      ),
    ).toBeInTheDocument();
    const post = fetch.calls.find((c) => c.method === 'POST');
    expect(post?.body).toMatchObject({
      deploy: { locations: [1], dedicated_ip: true, port_range: ['25565-25600', '27015'] },
    });
    expect(post?.body).not.toHaveProperty('allocation');
  });

  it('switching the nest asks only for eggs of the new nest (none of the previous one)', async () => {
    const nest = (id: number, name: string) => ({
      id,
      uuid: `nest-${id}`,
      author: 'talon@example.com',
      name,
      description: null,
      created_at: '2025-01-05T10:00:00+00:00',
      updated_at: '2025-01-05T10:00:00+00:00',
    });
    const paper = { ...wireEggWithVariables(), id: 7, uuid: 'egg-7', name: 'Paper', nest: 5 };
    const { fetch } = await openForm([
      {
        url: '/api/application/nests',
        status: 200,
        body: wireList('nest', [nest(1, 'Games'), nest(5, 'Community')]),
      },
      { url: '/api/application/nests/5/eggs', status: 200, body: wireList('egg', [paper]) },
      { url: '/api/application/nests/5/eggs/7', status: 200, body: { object: 'egg', attributes: paper } },
    ]);
    await userEvent.selectOptions(screen.getByLabelText('Nest'), '5');
    await waitFor(() => expect(screen.getByLabelText('Egg')).toHaveValue('7'));
    await waitFor(() => expect(fetch.calls.some((c) => c.url.includes('/nests/5/eggs/7'))).toBe(true));
    const eggCalls = fetch.calls.map((c) => c.url.split('?')[0]).filter((u) => /\/eggs\/\d+$/u.test(u!));
    expect(eggCalls).toEqual(['/api/application/nests/1/eggs/2', '/api/application/nests/5/eggs/7']);
  });

  it('takes a custom image instead of the egg’s', async () => {
    const { fetch } = await openForm([CREATED]);
    await chooseOwner();
    await userEvent.type(screen.getByLabelText('Server name'), 'Survival');
    await userEvent.selectOptions(screen.getByLabelText('Docker image'), 'Another image…');
    await userEvent.type(screen.getByLabelText('Image name'), 'bad image!');
    await userEvent.click(screen.getByRole('button', { name: 'Create server' }));
    expect(
      await screen.findByText('The image may only contain letters, numbers and . / - : @ _ and spaces.'),
    ).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Image name'));
    await userEvent.type(screen.getByLabelText('Image name'), 'ghcr.io/me/game:1');
    await userEvent.click(screen.getByRole('button', { name: 'Create server' }));
    await waitFor(() =>
      expect(fetch.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
        docker_image: 'ghcr.io/me/game:1',
      }),
    );
  });
});
