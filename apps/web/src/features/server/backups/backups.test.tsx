import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ClientBackup } from '@talon/shared/client/backup-wire';
import backupsEn from '../../../../locales/en/backups.json';
import { useGlobalStore } from '../../../app/store.ts';
import { fullPage } from '../../../lib/navigation.ts';
import { openFakeSocket } from '../../../test/fakeSocket.ts';
import { renderAt } from '../../../test/render.tsx';
import { setTestServer } from '../../../test/server.ts';
import { gateFor } from '../gating.ts';
import { useServerStore } from '../store.ts';
import { BackupsPage } from './BackupsPage.tsx';
import { useLiveBackups } from './live.ts';
import { alerts } from './useBackupActions.ts';
import { useBackupEvents } from './useBackupEvents.ts';
import { UNCONNECTED_REFRESH_MS } from './useBackups.ts';

const BASE = '/api/client/servers/abcd1234/backups';

const WORLD: ClientBackup = {
  uuid: 'b0000000-0000-4000-8000-000000000001',
  is_successful: true,
  is_locked: false,
  name: 'Before the update',
  ignored_files: [],
  checksum: 'sha1:2fd4e1c67a2d28fced849ee1bb76e7391b93eb12',
  bytes: 5 * 1024 * 1024,
  created_at: new Date(Date.now() - 3600_000).toISOString(),
  completed_at: new Date(Date.now() - 3500_000).toISOString(),
};
const RUNNING: ClientBackup = {
  ...WORLD,
  uuid: 'b0000000-0000-4000-8000-000000000002',
  name: 'Nightly',
  is_successful: false,
  checksum: null,
  bytes: 0,
  completed_at: null,
};
const BROKEN: ClientBackup = {
  ...WORLD,
  uuid: 'b0000000-0000-4000-8000-000000000003',
  name: 'Disk was full',
  is_successful: false,
  checksum: null,
  bytes: 0,
};
const LOCKED: ClientBackup = {
  ...WORLD,
  uuid: 'b0000000-0000-4000-8000-000000000004',
  name: 'Keep',
  is_locked: true,
};

type Answer = { status: number; body?: unknown };
type Call = { url: string; method: string; body: unknown };

const listBody = (backups: ClientBackup[], count: number, page = 1, pages = 1) => ({
  object: 'list',
  data: backups.map((attributes) => ({ object: 'backup', attributes })),
  meta: {
    backup_count: count,
    pagination: {
      total: backups.length,
      count: backups.length,
      per_page: 20,
      current_page: page,
      total_pages: pages,
      links: {},
    },
  },
});
const refusal = (status: number, code: string, detail: string): Answer => ({
  status,
  body: { errors: [{ code, status: String(status), detail }] },
});

beforeAll(() => {
  i18next.addResourceBundle('en', 'backups', backupsEn, true, true);
});

afterEach(() => {
  // Unmounted before the store is emptied: a page rendered without its server would throw.
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  useServerStore.getState().clear();
  useLiveBackups.getState().clear();
  useGlobalStore.setState({ flashes: [] });
});

/** The page as the server area shows it: with the area's backup event handling mounted. */
function Area() {
  useBackupEvents('abcd1234');
  return <BackupsPage />;
}

/**
 * Renders the page for a server allowed `limit` backups. `route` answers each request (method and
 * path without the query); a list read answers `list` unless `route` says otherwise.
 */
function setup(
  permissions: string[],
  options: {
    list?: Answer;
    limit?: number;
    route?: (call: Call) => Answer | undefined;
    status?: string | null;
    /** whether the live connection is up (default true) */
    connected?: boolean;
  } = {},
) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const call = {
      url,
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const answer =
      options.route?.(call) ??
      (call.method === 'GET' && url.startsWith(BASE)
        ? (options.list ?? { status: 200, body: listBody([WORLD], 1) })
        : { status: 500, body: { errors: [{ detail: `unexpected ${call.method} ${url}` }] } });
    const text = answer.body === undefined ? null : JSON.stringify(answer.body);
    return Promise.resolve(new Response(answer.status === 204 ? null : text, { status: answer.status }));
  });
  setTestServer(permissions, {
    status: options.status ?? null,
    feature_limits: { databases: 0, allocations: 0, backups: options.limit ?? 3 },
  });
  const fake = openFakeSocket('token');
  useServerStore.getState().setSocket(fake.socket);
  useServerStore.getState().setConnection({ connected: options.connected ?? true });
  const rendered = renderAt(<Area />);
  return { calls, ...fake, ...rendered };
}

const row = (uuid: string) => screen.getByTestId(`backup-${uuid}`);
const menuButton = (name: string) => screen.getByRole('button', { name: `Actions for ${name}` });
const openMenu = (name: string) => {
  fireEvent.click(menuButton(name));
  return screen.getByRole('menu', { name: `Actions for ${name}` });
};
const mutations = (calls: Call[]) => calls.filter((c) => c.method !== 'GET');

describe('backups page', () => {
  it('lists the backups titled Backups, with the limit text and the create button below the limit', async () => {
    const { calls } = setup(['*'], { list: { status: 200, body: listBody([WORLD, RUNNING, BROKEN], 2) } });
    await screen.findByTestId(`backup-${WORLD.uuid}`);
    expect(calls[0]).toMatchObject({ url: `${BASE}?page=1`, method: 'GET' });
    expect(document.title).toBe('Survival | Backups');
    expect(screen.getByRole('heading', { name: 'Backups' })).toBeInTheDocument();
    expect(screen.getByText('2 of 3 backups have been created for this server.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create backup' })).toBeInTheDocument();

    // Completed: size, checksum and time, and a menu.
    const done = within(row(WORLD.uuid));
    expect(done.getByTestId('backup-size')).toHaveTextContent('5.00 MB');
    expect(done.getByTestId('backup-checksum')).toHaveTextContent(WORLD.checksum!);
    expect(done.getByText('about 1 hour ago')).toBeInTheDocument();
    expect(menuButton('Before the update')).toBeEnabled();

    // Running: a spinner, a bar and a disabled menu.
    const running = within(row(RUNNING.uuid));
    expect(running.getAllByRole('status', { name: 'Creating…' }).length).toBeGreaterThan(0);
    expect(running.getByRole('progressbar', { name: 'Progress of Nightly' })).not.toHaveAttribute(
      'aria-valuenow',
    );
    expect(running.getByText('Starting…')).toBeInTheDocument();
    expect(running.getByRole('button', { name: /Actions for Nightly/ })).toBeDisabled();

    // Failed: the badge and only a delete button.
    const failed = within(row(BROKEN.uuid));
    expect(failed.getByText('Failed')).toBeInTheDocument();
    expect(failed.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Delete the failed backup Disk was full',
    ]);
    expect(failed.queryByTestId('backup-size')).toBeNull();
  });

  it('says backups cannot be made when the limit is 0, and offers no create button', async () => {
    setup(['*'], { limit: 0, list: { status: 200, body: listBody([], 0) } });
    await screen.findByText(
      'Backups cannot be created for this server because the backup limit is set to 0.',
    );
    expect(screen.queryByRole('button', { name: 'Create backup' })).toBeNull();
    expect(screen.getByText('There are no backups of this server yet.')).toBeInTheDocument();
  });

  it('hides the create button once the count reaches the limit (failed backups do not count)', async () => {
    setup(['*'], { limit: 2, list: { status: 200, body: listBody([WORLD, LOCKED, BROKEN], 2) } });
    await screen.findByText('2 of 2 backups have been created for this server.');
    expect(screen.queryByRole('button', { name: 'Create backup' })).toBeNull();
  });

  it('pages through the list', async () => {
    const { calls } = setup(['*'], {
      route: (call) =>
        call.url === `${BASE}?page=2`
          ? { status: 200, body: listBody([LOCKED], 2, 2, 2) }
          : call.url === `${BASE}?page=1`
            ? { status: 200, body: listBody([WORLD], 2, 1, 2) }
            : undefined,
    });
    await screen.findByText('Page 1 of 2');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByTestId(`backup-${LOCKED.uuid}`);
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual([`${BASE}?page=1`, `${BASE}?page=2`]);
  });

  it('shows a failed load with a retry', async () => {
    let fail = true;
    setup(['*'], {
      route: (call) => {
        if (call.method !== 'GET') return undefined;
        if (!fail) return { status: 200, body: listBody([WORLD], 1) };
        fail = false;
        return refusal(500, 'HttpException', 'The panel is down.');
      },
    });
    await screen.findByText('The panel is down.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByTestId(`backup-${WORLD.uuid}`);
  });
});

describe('backup permissions', () => {
  it('gates the page on backup.*: Access Denied without any backup permission', () => {
    expect(gateFor('backups', ['backup.read'])).toBe('allowed');
    expect(gateFor('backups', ['backup.create'])).toBe('allowed');
    expect(gateFor('backups', ['file.read', 'user.read'])).toBe('denied');
  });

  it('without backup.create there is no create button', async () => {
    setup(['backup.read', 'backup.delete']);
    await screen.findByTestId(`backup-${WORLD.uuid}`);
    expect(screen.getByText('1 of 3 backups have been created for this server.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create backup' })).toBeNull();
  });

  it('the menu offers only what is held, and is absent without download, restore or delete', async () => {
    setup(['backup.read', 'backup.download']);
    await screen.findByTestId(`backup-${WORLD.uuid}`);
    const menu = openMenu('Before the update');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Download']);
    useServerStore.setState({ permissions: ['backup.read', 'backup.restore'] });
    await waitFor(() =>
      expect(
        within(screen.getByRole('menu'))
          .getAllByRole('menuitem')
          .map((i) => i.textContent),
      ).toEqual(['Restore']),
    );
    useServerStore.setState({ permissions: ['backup.read', 'backup.create'] });
    await waitFor(() => expect(screen.queryByRole('button', { name: /Actions for/ })).toBeNull());
  });

  it('the failed row has no delete button without backup.delete', async () => {
    setup(['backup.read'], { list: { status: 200, body: listBody([BROKEN], 0) } });
    await screen.findByText('Failed');
    expect(within(row(BROKEN.uuid)).queryByRole('button')).toBeNull();
  });

  it('the Locked switch shows only with backup.delete', async () => {
    setup(['backup.read', 'backup.create']);
    fireEvent.click(await screen.findByRole('button', { name: 'Create backup' }));
    const dialog = screen.getByRole('dialog', { name: 'Create backup' });
    expect(within(dialog).queryByRole('switch')).toBeNull();
  });
});

describe('create backup modal', () => {
  it('sends the name, the ignored patterns and the lock, then reads the list again', async () => {
    let created = false;
    const { calls } = setup(['*'], {
      route: (call) => {
        if (call.method === 'POST' && call.url === BASE) {
          created = true;
          return { status: 200, body: { object: 'backup', attributes: { ...RUNNING, name: 'Pre-update' } } };
        }
        if (call.method === 'GET' && created) {
          return { status: 200, body: listBody([{ ...RUNNING, name: 'Pre-update' }, WORLD], 2) };
        }
        return undefined;
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Create backup' }));
    const dialog = screen.getByRole('dialog', { name: 'Create backup' });
    // The spec's hint for the ignored patterns.
    expect(
      within(dialog).getByText(
        "One path a line. If left blank, the .pteroignore file in the server's root folder supplies the rules. Wildcards (*) are supported and a leading ! negates a rule.",
      ),
    ).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Pre-update' } });
    fireEvent.change(within(dialog).getByLabelText('Ignored Files & Directories'), {
      target: { value: 'logs/\n*.tmp' },
    });
    const locked = within(dialog).getByRole('switch', { name: 'Locked' });
    expect(locked).toHaveAttribute('aria-checked', 'false');
    fireEvent.click(locked);
    expect(locked).toHaveAttribute('aria-checked', 'true');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start backup' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mutations(calls)).toEqual([
      { url: BASE, method: 'POST', body: { name: 'Pre-update', ignored: 'logs/\n*.tmp', is_locked: true } },
    ]);
    await screen.findByText('Pre-update');
    expect(screen.getByText('2 of 3 backups have been created for this server.')).toBeInTheDocument();
  });

  it('refuses a name over 191 characters before sending anything', async () => {
    const { calls } = setup(['*']);
    fireEvent.click(await screen.findByRole('button', { name: 'Create backup' }));
    const dialog = screen.getByRole('dialog', { name: 'Create backup' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'x'.repeat(192) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start backup' }));
    await within(dialog).findByText('The name must not exceed 191 characters.');
    expect(mutations(calls)).toEqual([]);
  });

  it("shows the panel's refusal inside the modal (backups:create), not on the page", async () => {
    setup(['*'], {
      route: (call) =>
        call.method === 'POST'
          ? refusal(
              429,
              'TooManyRequestsHttpException',
              'Only 2 backups may be generated within a 600 second span of time.',
            )
          : undefined,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Create backup' }));
    const dialog = screen.getByRole('dialog', { name: 'Create backup' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start backup' }));
    await within(dialog).findByText('Only 2 backups may be generated within a 600 second span of time.');
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['backups:create']);
    // A blank name is sent as null: the panel names it after the time.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(useGlobalStore.getState().flashes).toEqual([]);
  });
});

describe('live backup events', () => {
  it('a running row shows the bytes archived, then the percentage once the total is known', async () => {
    const { receive } = setup(['*'], { list: { status: 200, body: listBody([RUNNING], 1) } });
    await screen.findByText('Starting…');
    act(() => {
      receive('backup progress', JSON.stringify({ uuid: RUNNING.uuid, bytes_archived: 1048576 }));
    });
    const bar = screen.getByRole('progressbar', { name: 'Progress of Nightly' });
    expect(screen.getByText('1.00 MB archived')).toBeInTheDocument();
    expect(bar).not.toHaveAttribute('aria-valuenow');
    act(() => {
      receive(
        'backup progress',
        JSON.stringify({ uuid: RUNNING.uuid, bytes_archived: 2097152, bytes_total: 8388608 }),
      );
    });
    expect(screen.getByText('2.00 MB of 8.00 MB archived (25%)')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Progress of Nightly' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    // A total already passed (measured before files were added) is no total: bytes alone.
    act(() => {
      receive(
        'backup progress',
        JSON.stringify({ uuid: RUNNING.uuid, bytes_archived: 9437184, bytes_total: 8388608 }),
      );
    });
    expect(screen.getByText('9.00 MB archived')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Progress of Nightly' })).not.toHaveAttribute(
      'aria-valuenow',
    );
    act(() => {
      receive(
        'backup progress',
        JSON.stringify({ uuid: RUNNING.uuid, bytes_archived: 2097152, bytes_total: 8388608 }),
      );
    });
    // Another backup's progress or a malformed frame changes nothing here.
    act(() => {
      receive('backup progress', '{not json');
    });
    act(() => {
      receive('backup progress', JSON.stringify({ uuid: 'other', bytes_archived: 5 }));
    });
    expect(screen.getByText('2.00 MB of 8.00 MB archived (25%)')).toBeInTheDocument();
  });

  it('backup completed finishes the row without a reload', async () => {
    const { receive, calls } = setup(['*'], { list: { status: 200, body: listBody([RUNNING], 1) } });
    await screen.findByText('Starting…');
    act(() => {
      receive(
        'backup completed',
        JSON.stringify({
          uuid: RUNNING.uuid,
          is_successful: true,
          checksum: 'aa11bb22',
          checksum_type: 'sha1',
          file_size: 3 * 1024 * 1024,
        }),
      );
    });
    const done = within(row(RUNNING.uuid));
    expect(done.getByTestId('backup-size')).toHaveTextContent('3.00 MB');
    expect(done.getByTestId('backup-checksum')).toHaveTextContent('sha1:aa11bb22');
    expect(done.queryByRole('progressbar')).toBeNull();
    expect(menuButton('Nightly')).toBeEnabled();
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(1);
  });

  it('a failed completion shows the Failed badge and frees its place under the limit', async () => {
    const { receive } = setup(['*'], { limit: 1, list: { status: 200, body: listBody([RUNNING], 1) } });
    await screen.findByText('1 of 1 backups have been created for this server.');
    expect(screen.queryByRole('button', { name: 'Create backup' })).toBeNull();
    act(() => {
      receive(
        'backup completed',
        JSON.stringify({
          uuid: RUNNING.uuid,
          is_successful: false,
          checksum: '',
          checksum_type: '',
          file_size: 0,
        }),
      );
    });
    expect(within(row(RUNNING.uuid)).getByText('Failed')).toBeInTheDocument();
    expect(screen.getByText('0 of 1 backups have been created for this server.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create backup' })).toBeInTheDocument();
  });

  it('a completion that arrived before the list still shows (the panel answered with the backup running)', async () => {
    const { receive } = setup(['*'], { list: { status: 200, body: listBody([RUNNING], 1) } });
    act(() => {
      receive(
        'backup completed',
        JSON.stringify({
          uuid: RUNNING.uuid,
          is_successful: true,
          checksum: 'ff',
          checksum_type: 'sha1',
          file_size: 10,
        }),
      );
    });
    await screen.findByTestId(`backup-${RUNNING.uuid}`);
    expect(within(row(RUNNING.uuid)).getByTestId('backup-checksum')).toHaveTextContent('sha1:ff');
  });

  it('without a live connection, a running backup is read again until it is done', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reads = 0;
    setup(['*'], {
      connected: false,
      route: (call) => {
        if (call.method !== 'GET') return undefined;
        reads++;
        return {
          status: 200,
          body: listBody(
            [reads < 3 ? RUNNING : { ...RUNNING, ...WORLD, uuid: RUNNING.uuid, name: 'Nightly' }],
            1,
          ),
        };
      },
    });
    await screen.findByText('Starting…');
    await act(() => vi.advanceTimersByTimeAsync(UNCONNECTED_REFRESH_MS));
    await waitFor(() => expect(reads).toBe(2));
    await act(() => vi.advanceTimersByTimeAsync(UNCONNECTED_REFRESH_MS));
    await waitFor(() => expect(within(row(RUNNING.uuid)).getByTestId('backup-size')).toBeInTheDocument());
    // Done: no more reads.
    await act(() => vi.advanceTimersByTimeAsync(UNCONNECTED_REFRESH_MS * 2));
    expect(reads).toBe(3);
  });

  it('with the live connection up, a running backup is not polled', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = setup(['*'], { list: { status: 200, body: listBody([RUNNING], 1) } });
    await screen.findByText('Starting…');
    await act(() => vi.advanceTimersByTimeAsync(UNCONNECTED_REFRESH_MS * 2));
    expect(calls).toHaveLength(1);
  });

  it('backup restore completed reads the file list again', async () => {
    const { receive, client } = setup(['*']);
    await screen.findByTestId(`backup-${WORLD.uuid}`);
    client.setQueryData(['server', 'abcd1234', 'files', '/'], []);
    expect(client.getQueryState(['server', 'abcd1234', 'files', '/'])?.isInvalidated).toBe(false);
    act(() => {
      receive('backup restore completed');
    });
    expect(client.getQueryState(['server', 'abcd1234', 'files', '/'])?.isInvalidated).toBe(true);
  });
});

describe('backup menu actions', () => {
  it('Download goes to the signed address', async () => {
    const navigate = vi.spyOn(fullPage, 'navigate').mockImplementation(() => undefined);
    setup(['*'], {
      route: (call) =>
        call.url === `${BASE}/${WORLD.uuid}/download`
          ? {
              status: 200,
              body: { object: 'signed_url', attributes: { url: 'http://node/download/backup?token=t' } },
            }
          : undefined,
    });
    await screen.findByTestId(`backup-${WORLD.uuid}`);
    fireEvent.click(within(openMenu('Before the update')).getByRole('menuitem', { name: 'Download' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('http://node/download/backup?token=t'));
  });

  it('Restore asks first, sends truncate when ticked, and the server becomes restoring', async () => {
    const { calls } = setup(['*'], {
      route: (call) => (call.method === 'POST' ? { status: 204 } : undefined),
    });
    await screen.findByTestId(`backup-${WORLD.uuid}`);
    fireEvent.click(within(openMenu('Before the update')).getByRole('menuitem', { name: 'Restore' }));
    const dialog = screen.getByRole('dialog', { name: 'Restore "Before the update"?' });
    const truncate = within(dialog).getByRole('checkbox', { name: 'Delete all files first' });
    expect(truncate).not.toBeChecked();
    fireEvent.click(truncate);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(useServerStore.getState().server?.status).toBe('restoring_backup'));
    expect(mutations(calls)).toEqual([
      { url: `${BASE}/${WORLD.uuid}/restore`, method: 'POST', body: { truncate: true } },
    ]);
  });

  it('a refused restore is flashed under backups and the server is left as it was', async () => {
    setup(['*'], {
      route: (call) =>
        call.method === 'POST'
          ? refusal(
              400,
              'BadRequestHttpException',
              'This server is not currently in a state that allows for a backup to be restored.',
            )
          : undefined,
    });
    await screen.findByTestId(`backup-${WORLD.uuid}`);
    fireEvent.click(within(openMenu('Before the update')).getByRole('menuitem', { name: 'Restore' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    await screen.findByText(
      'This server is not currently in a state that allows for a backup to be restored.',
    );
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['backups']);
    expect(useServerStore.getState().server?.status).toBeNull();
  });

  it('Lock is immediate; Unlock needs a confirmation', async () => {
    const { calls } = setup(['*'], {
      route: (call) =>
        call.method === 'POST' && call.url.endsWith('/lock')
          ? {
              status: 200,
              body: {
                object: 'backup',
                attributes: call.url.includes(WORLD.uuid)
                  ? { ...WORLD, is_locked: true }
                  : { ...LOCKED, is_locked: false },
              },
            }
          : undefined,
      list: { status: 200, body: listBody([WORLD, LOCKED], 2) },
    });
    await screen.findByTestId(`backup-${WORLD.uuid}`);
    fireEvent.click(within(openMenu('Before the update')).getByRole('menuitem', { name: 'Lock' }));
    await waitFor(() => expect(within(row(WORLD.uuid)).getByTestId('backup-locked')).toBeInTheDocument());
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(within(openMenu('Keep')).getByRole('menuitem', { name: 'Unlock' }));
    const dialog = screen.getByRole('dialog', { name: 'Unlock "Keep"?' });
    expect(mutations(calls)).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    await waitFor(() => expect(within(row(LOCKED.uuid)).queryByTestId('backup-locked')).toBeNull());
    expect(mutations(calls).map((c) => c.url)).toEqual([
      `${BASE}/${WORLD.uuid}/lock`,
      `${BASE}/${LOCKED.uuid}/lock`,
    ]);
  });

  it('a lock failure is a browser alert with the message', async () => {
    const alert = vi.spyOn(alerts, 'show').mockImplementation(() => undefined);
    setup(['*'], {
      route: (call) =>
        call.method === 'POST'
          ? refusal(403, 'AccessDeniedHttpException', 'This action is unauthorized.')
          : undefined,
    });
    await screen.findByTestId(`backup-${WORLD.uuid}`);
    fireEvent.click(within(openMenu('Before the update')).getByRole('menuitem', { name: 'Lock' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('This action is unauthorized.'));
    expect(useGlobalStore.getState().flashes).toEqual([]);
  });

  it('Delete of a locked backup is not offered; an unlocked one is deleted after a confirmation', async () => {
    let deleted = false;
    const { calls } = setup(['*'], {
      route: (call) => {
        if (call.method === 'DELETE') {
          deleted = true;
          return { status: 204 };
        }
        if (call.method === 'GET' && deleted) return { status: 200, body: listBody([LOCKED], 1) };
        return undefined;
      },
      list: { status: 200, body: listBody([WORLD, LOCKED], 2) },
    });
    await screen.findByTestId(`backup-${LOCKED.uuid}`);
    const lockedItem = within(openMenu('Keep')).getByRole('menuitem', { name: 'Delete (unlock it first)' });
    expect(lockedItem).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(lockedItem);
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(within(openMenu('Before the update')).getByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete "Before the update"?' })).getByRole('button', {
        name: 'Delete backup',
      }),
    );
    await waitFor(() => expect(screen.queryByTestId(`backup-${WORLD.uuid}`)).toBeNull());
    expect(mutations(calls)).toEqual([{ url: `${BASE}/${WORLD.uuid}`, method: 'DELETE', body: undefined }]);
  });

  it('a refused delete is flashed under backups', async () => {
    setup(['*'], {
      route: (call) =>
        call.method === 'DELETE'
          ? refusal(400, 'BackupLockedException', 'Cannot delete a backup that is marked as locked.')
          : undefined,
    });
    await screen.findByTestId(`backup-${WORLD.uuid}`);
    fireEvent.click(within(openMenu('Before the update')).getByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete backup' }));
    await screen.findByText('Cannot delete a backup that is marked as locked.');
    expect(useGlobalStore.getState().flashes.map((f) => f.key)).toEqual(['backups']);
    expect(screen.getByTestId(`backup-${WORLD.uuid}`)).toBeInTheDocument();
  });

  it('the menu is keyboard usable: arrows move, Escape closes it and gives the focus back', async () => {
    setup(['*']);
    await screen.findByTestId(`backup-${WORLD.uuid}`);
    const button = menuButton('Before the update');
    button.focus();
    const menu = openMenu('Before the update');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Download', 'Restore', 'Lock', 'Delete']);
    expect(items[0]).toHaveFocus();
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(items[1]).toHaveFocus();
    fireEvent.keyDown(menu, { key: 'End' });
    expect(items[3]).toHaveFocus();
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
  });
});
