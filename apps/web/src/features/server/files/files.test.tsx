import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { useServerStore } from '../store.ts';
import { FilesPage } from './FilesPage.tsx';
import { useFileSelection } from './selection.ts';
import { browser } from './useFileActions.ts';
import { setTestServer } from '../../../test/server.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  useServerStore.getState().clear();
  useFileSelection.getState().clear();
  useGlobalStore.setState({ flashes: [] });
});

const LIST = '/api/client/servers/abcd1234/files/list';

function wire(
  name: string,
  options: { dir?: boolean; size?: number; mimetype?: string; mode?: string } = {},
) {
  const dir = options.dir ?? false;
  const stamp = new Date(Date.now() - 5 * 60_000).toISOString();
  return {
    object: 'file_object',
    attributes: {
      name,
      mode: dir ? 'drwxr-xr-x' : '-rw-r--r--',
      mode_bits: options.mode ?? (dir ? '755' : '644'),
      size: options.size ?? (dir ? 4096 : 100),
      is_file: !dir,
      is_symlink: false,
      mimetype: options.mimetype ?? (dir ? 'inode/directory' : 'text/plain; charset=utf-8'),
      created_at: stamp,
      modified_at: stamp,
    },
  };
}

const listOf = (...items: ReturnType<typeof wire>[]) => ({
  status: 200,
  body: { object: 'list', data: items },
});
const STANDARD = listOf(
  wire('server.js', { size: 1536 }),
  wire('world.zip', { mimetype: 'application/zip', size: 2048 }),
  wire('plugins', { dir: true }),
);

type Answer = { status: number; body?: unknown };

/** Renders the page as a user holding `permissions`; `hold` delays answers to matching URLs. */
function setup(permissions: string[], answers: Answer[], hold?: { match: string; until: Promise<void> }) {
  const stub = stubFetch(answers);
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    if (hold && (input instanceof Request ? input.url : input.toString()).includes(hold.match))
      await hold.until;
    return stub.fn(input, init);
  };
  vi.stubGlobal('fetch', fn);
  setTestServer(permissions);
  const view = renderAt(<FilesPage />, { path: '/server/abcd1234/files' });
  return { ...view, calls: stub.calls };
}

const rowNames = () => screen.getAllByTestId('file-row').map((row) => row.getAttribute('data-name'));
const openMenu = (name: string) =>
  fireEvent.click(screen.getByRole('button', { name: `Actions for ${name}` }));
const menuItems = () => screen.getAllByRole('menuitem').map((item) => item.textContent);

describe('file manager', () => {
  it('lists the folder: folders first, sizes for files only, relative times, breadcrumb from /home/container', async () => {
    const { calls } = setup(['*'], [STANDARD]);
    await screen.findByText('server.js');
    expect(rowNames()).toEqual(['plugins', 'server.js', 'world.zip']);
    expect(calls[0]).toMatchObject({ url: `${LIST}?directory=%2F`, method: 'GET' });
    const server = screen.getAllByTestId('file-row')[1]!;
    expect(within(server).getAllByText('1.50 kB').length).toBeGreaterThan(0);
    expect(within(server).getByText('5 minutes ago')).toBeInTheDocument();
    expect(within(screen.getAllByTestId('file-row')[0]!).queryByText('4.00 kB')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Current folder' })).toHaveTextContent('/home/container');
    expect(screen.getByRole('link', { name: 'plugins' })).toHaveAttribute(
      'href',
      '/server/abcd1234/files#/plugins',
    );
    // Editable files open in the editor; archives do not.
    expect(screen.getByRole('link', { name: 'server.js' })).toHaveAttribute(
      'href',
      '/server/abcd1234/files/edit#/server.js',
    );
    expect(screen.queryByRole('link', { name: 'world.zip' })).toBeNull();
    expect(screen.getByRole('link', { name: 'New File' })).toHaveAttribute(
      'href',
      '/server/abcd1234/files/new#/',
    );
    expect(document.title).toBe('Survival | Files');
  });

  it('says when a folder is empty and opens folders from the hash', async () => {
    const { router, calls } = setup(['*'], [listOf(), listOf(wire('a.cfg'))]);
    expect(await screen.findByText('This directory seems to be empty.')).toBeInTheDocument();
    await act(() => router.navigate({ hash: '#/plugins/Essentials' }));
    await screen.findByText('a.cfg');
    expect(calls[1]!.url).toBe(`${LIST}?directory=%2Fplugins%2FEssentials`);
    const crumbs = screen.getByRole('navigation', { name: 'Current folder' });
    expect(crumbs).toHaveTextContent('/home/container/plugins/Essentials');
    expect(within(crumbs).getByRole('link', { name: 'plugins' })).toHaveAttribute(
      'href',
      '/server/abcd1234/files#/plugins',
    );
  });

  it('keeps a climbing hash inside the server', async () => {
    const { router, calls } = setup(['*'], [STANDARD, listOf()]);
    await screen.findByText('server.js');
    await act(() => router.navigate({ hash: '#/../../etc' }));
    await screen.findByText('This directory seems to be empty.');
    expect(calls[1]!.url).toBe(`${LIST}?directory=%2Fetc`);
  });

  it('cuts a large folder at 250 entries and says so', async () => {
    const many = Array.from({ length: 260 }, (_, i) => wire(`log-${String(i).padStart(3, '0')}.txt`));
    setup(['*'], [listOf(...many)]);
    expect(
      await screen.findByText(
        'This directory is too large to display in the browser, limiting the output to the first 250 files.',
      ),
    ).toBeInTheDocument();
    expect(screen.getAllByTestId('file-row')).toHaveLength(250);
  });

  it('offers each action only with its permission', async () => {
    setup(['file.read', 'file.update'], [STANDARD]);
    await screen.findByText('server.js');
    expect(screen.queryByRole('button', { name: 'Create Directory' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'New File' })).toBeNull();
    // Without file.read-content a file's name opens nothing.
    expect(screen.queryByRole('link', { name: 'server.js' })).toBeNull();
    openMenu('server.js');
    expect(menuItems()).toEqual(['Rename', 'Move', 'Permissions']);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.getByRole('button', { name: 'Actions for server.js' })).toHaveFocus();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select server.js' }));
    const bar = screen.getByRole('region', { name: 'Selected files' });
    expect(within(bar).getByRole('button', { name: 'Move' })).toBeInTheDocument();
    expect(within(bar).queryByRole('button', { name: 'Archive' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('gives a reader without other rights no menu at all, and the owner every action', async () => {
    setup(['file.read'], [STANDARD]);
    await screen.findByText('server.js');
    expect(screen.queryByRole('button', { name: /^Actions for/ })).toBeNull();
    // Nothing could be done with a selection, so there is nothing to select.
    expect(screen.queryByRole('checkbox')).toBeNull();
    cleanup();
    useServerStore.getState().clear();

    setup(['*'], [STANDARD]);
    await screen.findByText('server.js');
    openMenu('server.js');
    expect(menuItems()).toEqual(['Rename', 'Move', 'Permissions', 'Copy', 'Archive', 'Download', 'Delete']);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    openMenu('world.zip');
    expect(menuItems()).toEqual(['Rename', 'Move', 'Permissions', 'Copy', 'Unarchive', 'Download', 'Delete']);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    openMenu('plugins');
    expect(menuItems()).toEqual(['Rename', 'Move', 'Permissions', 'Archive', 'Delete']);
  });

  it('renames at once, then puts the old name back and shows why when the panel refuses', async () => {
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    const refused = {
      status: 422,
      body: { errors: [{ code: 'ValidationException', status: '422', detail: 'The to field is invalid.' }] },
    };
    const { calls } = setup(['*'], [STANDARD, refused, STANDARD], { match: '/files/rename', until });
    await screen.findByText('server.js');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select world.zip' }));
    openMenu('server.js');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename server.js' });
    fireEvent.change(within(dialog).getByLabelText('New Name'), { target: { value: 'main.js' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));

    // Optimistic: the new name shows while the call is still out, and the selection is gone.
    expect(await screen.findByText('main.js')).toBeInTheDocument();
    expect(screen.queryByText('server.js')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Selected files' })).toBeNull();

    release();
    expect(await screen.findByText('The to field is invalid.')).toBeInTheDocument();
    await screen.findByText('server.js');
    expect(screen.queryByText('main.js')).toBeNull();
    expect(calls[1]).toMatchObject({
      url: '/api/client/servers/abcd1234/files/rename',
      method: 'PUT',
      body: { root: '/', files: [{ from: 'server.js', to: 'main.js' }] },
    });
    expect(calls[2]!.url).toBe(`${LIST}?directory=%2F`);
  });

  it('lists the first 15 names and counts the others before a bulk delete', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `file-${String(i + 1).padStart(2, '0')}.log`);
    const { calls } = setup(['*'], [listOf(...names.map((n) => wire(n))), { status: 204 }, listOf()]);
    await screen.findByText('file-01.log');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select every file in this folder' }));
    expect(screen.getByTestId('bulk-count')).toHaveTextContent('20 files selected');
    fireEvent.click(
      within(screen.getByRole('region', { name: 'Selected files' })).getByRole('button', { name: 'Delete' }),
    );

    const dialog = await screen.findByRole('dialog', { name: 'Delete 20 files?' });
    const listed = within(within(dialog).getByTestId('delete-list')).getAllByRole('listitem');
    expect(listed.map((li) => li.textContent)).toEqual([...names.slice(0, 15), '+ 5 other(s)']);
    expect(calls).toHaveLength(1);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('This directory seems to be empty.')).toBeInTheDocument();
    expect(calls[1]).toMatchObject({
      url: '/api/client/servers/abcd1234/files/delete',
      method: 'POST',
      body: { root: '/', files: names },
    });
  });

  it('needs a directory name, then creates the folder in the current directory', async () => {
    const { calls, router } = setup(['*'], [listOf(), { status: 204 }, listOf(wire('logs', { dir: true }))]);
    await act(() => router.navigate({ hash: '#/' }));
    await screen.findByText('This directory seems to be empty.');
    fireEvent.click(screen.getByRole('button', { name: 'Create Directory' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Directory' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('A valid directory name must be provided.')).toBeInTheDocument();
    expect(calls).toHaveLength(1);

    fireEvent.change(within(dialog).getByLabelText('Directory Name'), { target: { value: ' logs ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('link', { name: 'logs' })).toBeInTheDocument();
    expect(calls[1]).toMatchObject({
      url: '/api/client/servers/abcd1234/files/create-folder',
      method: 'POST',
      body: { root: '/', name: 'logs' },
    });
  });

  it('shows a create-folder refusal inside the modal', async () => {
    setup(['*'], [listOf(), { status: 400, body: { errors: [{ detail: 'That folder already exists.' }] } }]);
    await screen.findByText('This directory seems to be empty.');
    fireEvent.click(screen.getByRole('button', { name: 'Create Directory' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Directory' });
    fireEvent.change(within(dialog).getByLabelText('Directory Name'), { target: { value: 'logs' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('That folder already exists.')).toBeInTheDocument();
  });

  it('validates the permission digits and sends them with chmod', async () => {
    const { calls } = setup(['*'], [STANDARD, { status: 204 }, STANDARD]);
    await screen.findByText('server.js');
    openMenu('server.js');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Permissions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Permissions of server.js' });
    expect(within(dialog).getByTestId('chmod-current')).toHaveTextContent('rw-r--r--');
    const field = within(dialog).getByLabelText('Mode (octal)');
    fireEvent.change(field, { target: { value: '789' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(
      await within(dialog).findByText(
        'Permissions are three or four digits from 0 to 7, such as 644 or 0755.',
      ),
    ).toBeInTheDocument();
    fireEvent.change(field, { target: { value: '0755' } });
    expect(within(dialog).getByTestId('chmod-new')).toHaveTextContent('rwxr-xr-x');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[1]).toMatchObject({
      url: '/api/client/servers/abcd1234/files/chmod',
      body: { root: '/', files: [{ file: 'server.js', mode: 755 }] },
    });
  });

  it('downloads through the signed URL the panel hands out', async () => {
    const open = vi.spyOn(browser, 'open').mockImplementation(() => undefined);
    const url = 'http://node.example.test:8080/download/file?token=abc';
    const { calls } = setup(
      ['*'],
      [STANDARD, { status: 200, body: { object: 'signed_url', attributes: { url } } }],
    );
    await screen.findByText('server.js');
    openMenu('server.js');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Download' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith(url));
    expect(calls[1]!.url).toBe('/api/client/servers/abcd1234/files/download?file=%2Fserver.js');
  });

  it('shows a full error view after the retries and loads again on request', async () => {
    const down = { status: 502, body: { errors: [{ detail: 'The node is not answering right now.' }] } };
    const { calls } = setup(['*'], [down, down, down, STANDARD]);
    expect(
      await screen.findByText('The node is not answering right now.', {}, { timeout: 6000 }),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('server.js')).toBeInTheDocument();
  }, 10_000);
});
