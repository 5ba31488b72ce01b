import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signInForTest, wireList } from '../../testing.ts';
import { SERVER_PATH, fakeApi, renderServerView, wireAllocation, wireServer } from './testing.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const FREE = '/api/application/nodes/1/allocations';

describe('admin server view: Build', () => {
  it('saves a new memory limit in the nested shape and says the node applies it at once', async () => {
    const api = fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${FREE}`]: { status: 200, body: wireList('allocation', [wireAllocation(13, 25567, false)]) },
      [`PATCH ${SERVER_PATH}/build`]: { status: 200, body: wireServer() },
    });
    renderServerView('build');
    const memory = await screen.findByLabelText('Memory (MiB)');
    expect(memory).toHaveValue('1024');
    await userEvent.clear(memory);
    await userEvent.type(memory, '2048');
    await userEvent.click(screen.getByRole('button', { name: 'Save build' }));

    expect(await screen.findByText(/The node applies the new limits at once/)).toBeInTheDocument();
    expect(api.made('PATCH', `${SERVER_PATH}/build`)[0]!.body).toEqual({
      allocation: 11,
      oom_disabled: true,
      limits: { memory: 2048, swap: 0, disk: 5120, io: 500, cpu: 100, threads: null },
      feature_limits: { databases: 2, allocations: 3, backups: 1 },
      add_allocations: [],
      remove_allocations: [],
    });
    // The free addresses are asked for unassigned ones only.
    expect(api.made('GET', FREE)[0]!.query.get('filter[server_id]')).toBe('false');
  });

  it('checks the limits before sending anything', async () => {
    const api = fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${FREE}`]: { status: 200, body: wireList('allocation', []) },
    });
    renderServerView('build');
    const memory = await screen.findByLabelText('Memory (MiB)');
    await userEvent.clear(memory);
    await userEvent.type(memory, 'lots');
    const io = screen.getByLabelText('Block IO weight');
    await userEvent.clear(io);
    await userEvent.type(io, '5');
    await userEvent.type(screen.getByLabelText('CPU threads'), 'two');
    await userEvent.click(screen.getByRole('button', { name: 'Save build' }));

    expect(await screen.findByText('The memory limit must be a whole number.')).toBeInTheDocument();
    expect(screen.getByText('The block IO weight must be between 10 and 1000.')).toBeInTheDocument();
    expect(screen.getByText('Threads are numbers, commas and dashes, like 0-1,3.')).toBeInTheDocument();
    expect(
      screen.getByText("This node has no free addresses. Add some on the node's Allocations tab."),
    ).toBeInTheDocument();
    expect(api.made('PATCH', `${SERVER_PATH}/build`)).toHaveLength(0);
  });

  it('adds a free address, makes it primary and removes the old primary in one save', async () => {
    const api = fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${FREE}`]: {
        status: 200,
        body: wireList('allocation', [wireAllocation(13, 25567, false), wireAllocation(14, 25568, false)]),
      },
      [`PATCH ${SERVER_PATH}/build`]: { status: 200, body: wireServer({ allocation: 14 }) },
    });
    renderServerView('build');
    await userEvent.selectOptions(await screen.findByLabelText('Add an address'), '10.0.0.5:25568');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByRole('button', { name: 'Do not add 10.0.0.5:25568' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Remove 10.0.0.5:25565' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save build' }));
    // The primary is being removed: refused before sending.
    expect(
      await screen.findByText('Choose a primary address that is not being removed.'),
    ).toBeInTheDocument();
    expect(api.made('PATCH', `${SERVER_PATH}/build`)).toHaveLength(0);

    await userEvent.selectOptions(screen.getByLabelText('Primary address'), '10.0.0.5:25568');
    await userEvent.click(screen.getByRole('button', { name: 'Save build' }));
    expect(await screen.findByText(/The node applies the new limits at once/)).toBeInTheDocument();
    expect(api.made('PATCH', `${SERVER_PATH}/build`)[0]!.body).toMatchObject({
      allocation: 14,
      add_allocations: [14],
      remove_allocations: [11],
    });
  });

  it("shows the API's refusal in words", async () => {
    fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${FREE}`]: { status: 200, body: wireList('allocation', []) },
      [`PATCH ${SERVER_PATH}/build`]: {
        status: 400,
        body: {
          errors: [
            {
              code: 'DisplayException',
              status: '400',
              detail: 'The requested default allocation is not currently assigned to this server.',
            },
          ],
        },
      },
    });
    renderServerView('build');
    await userEvent.click(await screen.findByRole('button', { name: 'Save build' }));
    expect(
      await screen.findByText('The requested default allocation is not currently assigned to this server.'),
    ).toBeInTheDocument();
  });

  it('offers the OOM killer option only where it has an effect: a note for a node that runs processes', async () => {
    const health = (driver: string) => ({
      object: 'node_health',
      attributes: {
        reachable: true,
        version: '1.0.0',
        architecture: 'amd64',
        cpu_count: 2,
        kernel_version: '6.1',
        os: 'Linux',
        memory: { total: 1 },
        runtime: { driver, confinement: null, network: null },
        error: null,
        checked_at: '2025-01-05T10:00:00Z',
      },
    });
    const option = 'Stop the server when it runs out of memory (OOM killer)';
    const routes = (driver: string) => ({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`GET ${FREE}`]: { status: 200, body: wireList('allocation', []) },
      'GET /api/application/nodes/1/health': { status: 200, body: health(driver) },
    });
    fakeApi(routes('process'));
    const { unmount } = renderServerView('build');
    expect(await screen.findByText(/This node runs servers as processes/)).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: option })).toBeNull();
    unmount();

    fakeApi(routes('docker'));
    renderServerView('build');
    expect(await screen.findByRole('checkbox', { name: option })).not.toBeChecked();
    expect(screen.getByText(/^Docker nodes only: when off/)).toBeInTheDocument();
  });
});
