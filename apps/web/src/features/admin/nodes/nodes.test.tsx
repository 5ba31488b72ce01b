import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { renderAt } from '../../../test/render.tsx';
import {
  routeFetch,
  signInForTest,
  wireFieldError,
  wireList,
  wireNode as anyNode,
  type FetchRoute,
} from '../testing.ts';
import { NodesListPage } from './NodesListPage.tsx';
import {
  NewNodePage,
  NodeAboutTab,
  NodeAllocationsTab,
  NodeConfigurationTab,
  NodeSettingsTab,
  NodeViewLayout,
} from './NodePages.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const wireNode = (id: number, name: string, extra: Record<string, unknown> = {}) =>
  anyNode(id, name, {
    uuid: `node-uuid-${id}`,
    daemon_base: '/var/lib/talon/volumes',
    allocated_resources: { memory: 2048, disk: 10240 },
    relationships: { location: { object: 'location', attributes: { id: 1, short: 'eu-west', long: null } } },
    ...extra,
  });

const online = (version = '0.1.0') => ({
  object: 'node_health',
  attributes: {
    reachable: true,
    version,
    architecture: 'amd64',
    cpu_count: 8,
    kernel_version: '6.1.0',
    os: 'Debian GNU/Linux 12 (bookworm)',
    memory: { total: 16 * 1024 ** 3 },
    error: null,
    checked_at: '2025-01-05T10:00:00Z',
  },
});

const offline = (error: string) => ({
  object: 'node_health',
  attributes: {
    reachable: false,
    version: null,
    architecture: null,
    cpu_count: null,
    kernel_version: null,
    os: null,
    memory: { total: null },
    error,
    checked_at: '2025-01-05T10:00:00Z',
  },
});

const locations = (...shorts: string[]) => ({
  url: '/api/application/locations',
  status: 200,
  body: wireList(
    'location',
    shorts.map((short, i) => ({ id: i + 1, short, long: null, created_at: '', updated_at: null })),
  ),
});

const allocation = (id: number, port: number, server: { id: number; name: string } | null = null) => ({
  id,
  ip: '203.0.113.10',
  alias: null,
  port,
  notes: null,
  assigned: server !== null,
  relationships: {
    server: server ? { object: 'server', attributes: server } : { object: 'null_resource', attributes: null },
  },
});

/** The node's pages as the route table mounts them (AdminPage shows the flashes). */
function renderNode(path: string, routes: FetchRoute[]) {
  const fetch = routeFetch([
    {
      url: '/api/application/nodes/3',
      status: 200,
      body: { object: 'node', attributes: wireNode(3, 'Alpha') },
    },
    { url: '/api/application/nodes/3/health', status: 200, body: online() },
    ...routes,
  ]);
  vi.stubGlobal('fetch', fetch.fn);
  const view = renderAt(
    <Routes>
      <Route path="/admin/nodes/new" element={<NewNodePage />} />
      <Route path="/admin/nodes/view/:id" element={<NodeViewLayout />}>
        <Route index element={<NodeAboutTab />} />
        <Route path="settings" element={<NodeSettingsTab />} />
        <Route path="configuration" element={<NodeConfigurationTab />} />
        <Route path="allocations" element={<NodeAllocationsTab />} />
      </Route>
      <Route path="*" element={<p>elsewhere</p>} />
    </Routes>,
    { path },
  );
  return { fetch, ...view };
}

const error400 = (code: string, detail: string) => ({ errors: [{ code, status: '400', detail }] });

describe('admin nodes list', () => {
  it('asks with the address bar’s search and sort, and shows each node’s location, use and health', async () => {
    let answerSlow: (r: Response) => void = () => undefined;
    const fetch = routeFetch([
      {
        url: '/api/application/nodes',
        status: 200,
        body: wireList('node', [wireNode(1, 'Alpha'), wireNode(2, 'Beta')]),
      },
      { url: '/api/application/nodes/1/health', status: 200, body: online('1.2.3') },
    ]);
    // Beta's daemon is slow: its row shows a spinner while Alpha's is already online.
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      (input instanceof Request ? input.url : input.toString()).includes('/nodes/2/health')
        ? new Promise<Response>((resolve) => (answerSlow = resolve))
        : fetch.fn(input, init),
    );
    renderAt(<NodesListPage />, { path: '/admin/nodes?search=al&sort=-name' });
    const alpha = (await screen.findByRole('link', { name: 'Alpha' })).closest('tr')!;
    expect(within(alpha).getByText('eu-west')).toBeInTheDocument();
    expect(within(alpha).getByRole('progressbar', { name: 'Memory allocated on Alpha' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    expect(await within(alpha).findByText('Online')).toBeInTheDocument();
    expect(within(alpha).getByText('version 1.2.3')).toBeInTheDocument();
    const beta = screen.getByRole('link', { name: 'Beta' }).closest('tr')!;
    expect(within(beta).getByRole('status', { name: 'Checking…' })).toBeInTheDocument();
    answerSlow(new Response(JSON.stringify(offline('Timed out after 3 s')), { status: 200 }));
    expect(await within(beta).findByText('Offline')).toBeInTheDocument();
    expect(within(beta).getByText('Timed out after 3 s')).toBeInTheDocument();
    const url = new URL(fetch.calls[0]!.url, 'http://x');
    expect(url.searchParams.get('search')).toBe('al');
    expect(url.searchParams.get('sort')).toBe('-name');
    expect(url.searchParams.get('include')).toBe('location');
  });

  it('says so when there are none, and shows the error in words', async () => {
    vi.stubGlobal(
      'fetch',
      routeFetch([{ url: '/api/application/nodes', status: 200, body: wireList('node', []) }]).fn,
    );
    const { unmount } = renderAt(<NodesListPage />, { path: '/admin/nodes' });
    expect(await screen.findByText('There are no nodes yet.')).toBeInTheDocument();
    unmount();
    vi.stubGlobal(
      'fetch',
      routeFetch([
        { url: '/api/application/nodes', status: 500, body: error400('X', 'The database is down.') },
      ]).fn,
    );
    renderAt(<NodesListPage />, { path: '/admin/nodes' });
    expect(await screen.findAllByTestId('skeleton-row')).toHaveLength(5);
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is down.');
  });
});

describe('admin node create and settings', () => {
  it('checks the form with the API’s rules, then creates and opens the allocations', async () => {
    const { fetch, router } = renderNode('/admin/nodes/new', [
      locations('eu-west'),
      {
        method: 'POST',
        url: '/api/application/nodes',
        status: 422,
        once: true,
        body: {
          errors: [wireFieldError('fqdn', 'required', 'The fqdn field is required.')],
        },
      },
      {
        method: 'POST',
        url: '/api/application/nodes',
        status: 201,
        body: { object: 'node', attributes: wireNode(9, 'Gamma') },
      },
    ]);
    await screen.findByRole('option', { name: 'eu-west' });
    await userEvent.click(screen.getByRole('button', { name: 'Create node' }));
    expect(await screen.findByText('A name is required.')).toBeInTheDocument();
    expect(screen.getByText('Choose a location.')).toBeInTheDocument();
    expect(screen.getByText('Enter the memory.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Name'), 'bad/name');
    await userEvent.clear(screen.getByLabelText('Upload size limit (MiB)'));
    await userEvent.type(screen.getByLabelText('Upload size limit (MiB)'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Create node' }));
    expect(
      await screen.findByText(
        'The name may be up to 100 characters: letters, numbers, spaces, dots, dashes and underscores.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('The upload size limit must be between 1 and 1024 MiB.')).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.type(screen.getByLabelText('Name'), 'Gamma');
    await userEvent.selectOptions(screen.getByLabelText('Location'), 'eu-west');
    await userEvent.type(screen.getByLabelText('Address (domain name or IP)'), 'gamma.example.com');
    await userEvent.selectOptions(screen.getByLabelText('Protocol'), 'http');
    await userEvent.click(screen.getByLabelText('Behind a proxy that handles HTTPS'));
    await userEvent.type(screen.getByLabelText('Memory (MiB)'), '4096');
    await userEvent.type(screen.getByLabelText('Disk space (MiB)'), '50000');
    await userEvent.clear(screen.getByLabelText('Upload size limit (MiB)'));
    await userEvent.type(screen.getByLabelText('Upload size limit (MiB)'), '200');
    await userEvent.click(screen.getByRole('button', { name: 'Create node' }));
    // The API's 422 lands beside its field.
    expect(await screen.findByText('The fqdn field is required.')).toBeInTheDocument();
    expect(screen.getByLabelText('Address (domain name or IP)')).toHaveAttribute('aria-invalid', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Create node' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/nodes/view/9/allocations'));
    expect(fetch.calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({
      name: 'Gamma',
      description: null,
      location_id: 1,
      fqdn: 'gamma.example.com',
      scheme: 'http',
      behind_proxy: true,
      public: true,
      maintenance_mode: false,
      memory: 4096,
      memory_overallocate: 0,
      disk: 50000,
      disk_overallocate: 0,
      upload_size: 200,
      daemon_listen: 8080,
      daemon_sftp: 2022,
      daemon_base: '/var/lib/talon/volumes',
    });
  });

  it('links to creating a location when there is none', async () => {
    renderNode('/admin/nodes/new', [locations()]);
    expect(await screen.findByRole('link', { name: 'Create a location' })).toHaveAttribute(
      'href',
      '/admin/locations',
    );
  });

  it('saves the settings and shows a not-persisted answer as a warning without its HTML', async () => {
    const { fetch } = renderNode('/admin/nodes/view/3/settings', [
      locations('eu-west'),
      {
        method: 'PATCH',
        url: '/api/application/nodes/3',
        status: 400,
        body: error400(
          'ConfigurationNotPersistedException',
          'The daemon configuration <strong>has been updated</strong>, however there was an error. You will need to manually update the configuration file (config.yml) for the daemon to apply these changes.',
        ),
      },
    ]);
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('Alpha');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Location' })).toHaveValue('1'));
    await userEvent.click(screen.getByLabelText('Maintenance mode'));
    await userEvent.click(screen.getByRole('button', { name: 'Save node' }));
    const warning = await screen.findByText(/Saved, but the node's daemon could not be updated/u);
    expect(warning).toHaveTextContent(
      'The daemon configuration has been updated, however there was an error.',
    );
    expect(warning.textContent).not.toContain('<strong>');
    expect(fetch.calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({
      name: 'Alpha',
      maintenance_mode: true,
    });
  });

  it('resets the daemon secret only after the confirmation', async () => {
    const { fetch } = renderNode('/admin/nodes/view/3/settings', [
      locations('eu-west'),
      {
        method: 'PATCH',
        url: '/api/application/nodes/3',
        status: 200,
        body: { object: 'node', attributes: wireNode(3, 'Alpha') },
      },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: "Reset the daemon's secret" }));
    const dialog = screen.getByRole('dialog', { name: 'Reset the secret of Alpha?' });
    expect(dialog).toHaveTextContent('configured again');
    expect(fetch.calls.some((c) => c.method === 'PATCH')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: "Reset the daemon's secret" }));
    expect(await screen.findByText(/The daemon's secret was reset/u)).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({
      name: 'Alpha',
      reset_secret: true,
    });
  });
});

describe('admin node allocations', () => {
  const page = (...items: ReturnType<typeof allocation>[]) => ({
    url: '/api/application/nodes/3/allocations',
    status: 200,
    body: wireList('allocation', items),
  });

  it('adds ports typed as ranges and lists, with the API’s refusal beside the field', async () => {
    const { fetch } = renderNode('/admin/nodes/view/3/allocations', [
      {
        method: 'POST',
        url: '/api/application/nodes/3/allocations',
        status: 400,
        once: true,
        body: error400('CidrOutOfRangeException', 'CIDR notation only allows masks between /25 and /32.'),
      },
      { method: 'POST', url: '/api/application/nodes/3/allocations', status: 204 },
      page(),
    ]);
    expect(
      await screen.findByText('This node has no allocations yet: add an IP address and ports.'),
    ).toBeInTheDocument();
    const form = screen.getByRole('region', { name: 'Add allocations' });
    await userEvent.type(within(form).getByLabelText('IP address'), '203.0.113.0/24');
    await userEvent.type(within(form).getByLabelText('Ports'), '25565-27000');
    await userEvent.click(within(form).getByRole('button', { name: 'Add allocations' }));
    expect(
      await within(form).findByText(
        'Adding more than 1000 ports in a single range at once is not supported.',
      ),
    ).toBeInTheDocument();
    await userEvent.clear(within(form).getByLabelText('Ports'));
    await userEvent.type(within(form).getByLabelText('Ports'), '1000');
    await userEvent.click(within(form).getByRole('button', { name: 'Add allocations' }));
    expect(
      await within(form).findByText(
        'Ports in an allocation must be greater than 1024 and less than or equal to 65535.',
      ),
    ).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.clear(within(form).getByLabelText('Ports'));
    await userEvent.type(within(form).getByLabelText('Ports'), '25565-25600, 27015');
    await userEvent.click(within(form).getByRole('button', { name: 'Add allocations' }));
    expect(
      await within(form).findByText('CIDR notation only allows masks between /25 and /32.'),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText('IP address')).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(within(form).getByLabelText('IP address'));
    await userEvent.type(within(form).getByLabelText('IP address'), '203.0.113.10');
    await userEvent.type(within(form).getByLabelText('Alias'), 'play.example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Add allocations' }));
    expect(await screen.findByText(/Added 203.0.113.10 with ports 25565-25600, 27015/u)).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({
      ip: '203.0.113.10',
      alias: 'play.example.com',
      ports: ['25565-25600', '27015'],
    });
  });

  it('keeps the filters in the address and links assigned ones to their server', async () => {
    const { fetch, router } = renderNode('/admin/nodes/view/3/allocations?show=free&port=25565', [
      page(allocation(1, 25565, { id: 7, name: 'Survival' })),
    ]);
    // Twice in the DOM: its column, and under the address on a phone (CSS shows one).
    for (const link of await screen.findAllByRole('link', { name: 'Survival' }))
      expect(link).toHaveAttribute('href', '/admin/servers/view/7');
    expect(screen.queryByRole('checkbox', { name: 'Select 203.0.113.10:25565' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete 203.0.113.10:25565' })).toBeNull();
    const url = new URL(fetch.calls.find((c) => c.url.includes('/allocations'))!.url, 'http://x');
    expect(url.searchParams.get('filter[server_id]')).toBe('false');
    expect(url.searchParams.get('filter[port]')).toBe('25565');
    expect(url.searchParams.get('include')).toBe('server');
    await userEvent.type(screen.getByLabelText('Filter by IP'), '203.0.113.10{Enter}');
    await waitFor(() => expect(router.state.location.search).toContain('ip=203.0.113.10'));
    expect(router.state.location.search).toContain('show=free');
  });

  it('deletes the selected free allocations after a confirmation with the count, reporting refusals', async () => {
    const { fetch } = renderNode('/admin/nodes/view/3/allocations', [
      page(allocation(1, 25565), allocation(2, 25566), allocation(3, 25567, { id: 7, name: 'Survival' })),
      { method: 'DELETE', url: '/api/application/nodes/3/allocations/1', status: 204 },
      {
        method: 'DELETE',
        url: '/api/application/nodes/3/allocations/2',
        status: 400,
        body: error400(
          'ServerUsingAllocationException',
          'A server is currently assigned to this allocation.',
        ),
      },
    ]);
    const selectAll = await screen.findByRole('checkbox', {
      name: 'Select all free allocations on this page',
    });
    expect(screen.getByRole('button', { name: 'Delete selected' })).toBeDisabled();
    await userEvent.click(selectAll);
    expect(screen.getByRole('checkbox', { name: 'Select 203.0.113.10:25565' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select 203.0.113.10:25566' })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 2 allocations?' });
    expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete 2 allocations' }));
    expect(
      await screen.findByText(
        'Deleted 1; the panel refused the others: 203.0.113.10:25566: A server is currently assigned to this allocation.',
      ),
    ).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      '/api/application/nodes/3/allocations/1',
      '/api/application/nodes/3/allocations/2',
    ]);
  });

  it('deletes one allocation after naming it, and edits alias and notes in the row', async () => {
    const { fetch } = renderNode('/admin/nodes/view/3/allocations', [
      page(allocation(1, 25565)),
      { method: 'DELETE', url: '/api/application/nodes/3/allocations/1', status: 204 },
      {
        method: 'PATCH',
        url: /\/api\/application\/nodes\/3\/allocations\/1\?include=server$/u,
        status: 200,
        body: { object: 'allocation', attributes: { ...allocation(1, 25565), alias: 'mc.example.com' } },
      },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit 203.0.113.10:25565' }));
    await userEvent.type(screen.getByLabelText('Alias of 203.0.113.10:25565'), 'mc.example.com');
    await userEvent.type(screen.getByLabelText('Notes of 203.0.113.10:25565'), 'lobby{Enter}');
    expect(await screen.findByText('Saved 203.0.113.10:25565.')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'PATCH')!.body).toEqual({
      alias: 'mc.example.com',
      notes: 'lobby',
    });

    await userEvent.click(screen.getByRole('button', { name: 'Delete 203.0.113.10:25565' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the allocation 203.0.113.10:25565?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete allocation' }));
    expect(await screen.findByText('Deleted 203.0.113.10:25565.')).toBeInTheDocument();
  });
});

describe('admin node configuration and about', () => {
  it('shows the configuration file and makes a setup command with its expiry', async () => {
    const { fetch } = renderNode('/admin/nodes/view/3/configuration', [
      {
        url: '/api/application/nodes/3/configuration',
        status: 200,
        body: {
          uuid: 'node-uuid-3',
          token_id: 'abc',
          api: { port: 8080 },
          remote: 'https://panel.example.com',
        },
      },
      {
        url: '/api/application/nodes/3/setup',
        status: 200,
        body: { object: 'node_setup', attributes: { embedded: false } },
      },
      {
        method: 'POST',
        url: '/api/application/nodes/3/setup-token',
        status: 201,
        body: {
          object: 'node_setup_token',
          attributes: {
            token: 'tok123',
            expires_at: '2025-01-05T10:15:00Z',
            command: 'npm run -s daemon -- configure --panel-url https://panel.example.com --token tok123',
          },
        },
      },
    ]);
    const file = await screen.findByLabelText('Daemon configuration file');
    expect(file.textContent).toContain('"token_id": "abc"');
    expect(screen.getByRole('button', { name: 'Copy configuration file' })).toBeInTheDocument();
    expect(screen.getByText('/etc/talon/daemon.json').tagName).toBe('CODE');
    expect(screen.getByText('npm run daemon').tagName).toBe('CODE');
    await userEvent.click(screen.getByRole('button', { name: 'Generate setup command' }));
    expect(await screen.findByLabelText('Setup command')).toHaveTextContent(
      'npm run -s daemon -- configure --panel-url https://panel.example.com --token tok123',
    );
    expect(screen.getByText(/Valid for 15 minutes, once/u)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy setup command' })).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('offers no setup command for the embedded local node, whose daemon the panel sets up', async () => {
    const { fetch } = renderNode('/admin/nodes/view/3/configuration', [
      { url: '/api/application/nodes/3/configuration', status: 200, body: { uuid: 'node-uuid-3' } },
      {
        url: '/api/application/nodes/3/setup',
        status: 200,
        body: { object: 'node_setup', attributes: { embedded: true } },
      },
    ]);
    expect(
      await screen.findByText(
        'The panel configures and starts this node’s daemon itself: it needs no setup command.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate setup command' })).toBeNull();
    expect(fetch.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('shows what the daemon runs on, the node’s use and its counts', async () => {
    renderNode('/admin/nodes/view/3', [
      { url: '/api/application/servers', status: 200, body: wireList('server', [], 1, 1, 4) },
      {
        url: '/api/application/nodes/3/allocations',
        status: 200,
        body: wireList('allocation', [], 1, 1, 40),
      },
    ]);
    expect(await screen.findByText('Daemon version')).toBeInTheDocument();
    expect(screen.getByText('Debian GNU/Linux 12 (bookworm)')).toBeInTheDocument();
    expect(screen.getByText('16 GB')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Memory given to servers' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    expect(await screen.findByText('4')).toBeInTheDocument();
  });

  it('shows the error of an offline daemon', async () => {
    const fetch = routeFetch([
      {
        url: '/api/application/nodes/3',
        status: 200,
        body: { object: 'node', attributes: wireNode(3, 'Alpha') },
      },
      { url: '/api/application/nodes/3/health', status: 200, body: offline('Connection refused') },
      { url: '/api/application/servers', status: 200, body: wireList('server', []) },
      { url: '/api/application/nodes/3/allocations', status: 200, body: wireList('allocation', []) },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(
      <Routes>
        <Route path="/admin/nodes/view/:id" element={<NodeViewLayout />}>
          <Route index element={<NodeAboutTab />} />
        </Route>
      </Routes>,
      { path: '/admin/nodes/view/3' },
    );
    expect(await screen.findByText('Connection refused')).toBeInTheDocument();
    expect(
      screen.getByText(/The panel cannot reach the daemon at https:\/\/alpha.example.com:8080/u),
    ).toBeInTheDocument();
  });
});
