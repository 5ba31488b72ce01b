import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { EditorView } from '@codemirror/view';
import { useGlobalStore } from '../../../../app/store.ts';
import { stubFetch } from '../../../../test/render.tsx';
import { useServerStore } from '../../store.ts';
import { FileEditorPage } from './FileEditorPage.tsx';
import { setTestServer } from '../../../../test/server.ts';

// jsdom lays nothing out; CodeMirror measures text ranges, so give ranges empty boxes.
beforeAll(() => {
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => ({
    x: 0,
    y: 0,
    top: 0,
    left: 0,
    right: 0,
    bottom: 0,
    width: 0,
    height: 0,
    toJSON: () => ({}),
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useServerStore.getState().clear();
  useGlobalStore.setState({ flashes: [] });
});

const BASE = '/api/client/servers/abcd1234/files';
type Answer = { status: number; body?: unknown };

/**
 * The editor at `url` as a user holding `permissions`. Requests are recorded with their raw body
 * (stubFetch only keeps JSON bodies; a file's content is plain text).
 */
function setup(url: string, permissions: string[], answers: Answer[]) {
  const stub = stubFetch(answers);
  const raw: (string | undefined)[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    raw.push(typeof init?.body === 'string' ? init.body : undefined);
    return stub.fn(input, { ...init, body: undefined });
  });
  setTestServer(permissions);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/server/:id/files/edit', element: <FileEditorPage action="edit" /> },
      { path: '/server/:id/files/new', element: <FileEditorPage action="new" /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const calls = () => stub.calls.map((call, i) => ({ ...call, raw: raw[i] }));
  return { router, calls };
}

/** The CodeMirror view on the page, once its chunk has loaded. */
async function editorView(): Promise<EditorView> {
  const dom = await waitFor(() => {
    const found = document.querySelector<HTMLElement>('[data-testid="code-editor"] .cm-editor');
    if (!found) throw new Error('the editor has not loaded yet');
    return found;
  });
  return EditorView.findFromDOM(dom)!;
}

/** Types into the editor the way a keystroke does: a user-input transaction at `at`. */
function typeAt(view: EditorView, at: number, text: string) {
  act(() => view.dispatch({ changes: { from: at, insert: text }, userEvent: 'input.type' }));
}

describe('file editor', () => {
  it('shows an error view with a back button when the file cannot be read', async () => {
    const { router, calls } = setup(
      '/server/abcd1234/files/edit#/plugins/gone.yml',
      ['*'],
      [
        {
          status: 404,
          body: {
            errors: [{ code: 'NotFound', status: '404', detail: 'The requested file was not found.' }],
          },
        },
      ],
    );
    expect(await screen.findByText('The requested file was not found.')).toBeInTheDocument();
    expect(screen.getByText('This file could not be opened')).toBeInTheDocument();
    expect(calls()[0]!.url).toBe(`${BASE}/contents?file=%2Fplugins%2Fgone.yml`);
    fireEvent.click(screen.getByRole('button', { name: 'Back to the files' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/server/abcd1234/files'));
    expect(router.state.location.hash).toBe('#/plugins');
  });

  it('loads the file in the mode of its name, saves the raw text as text/plain, and Ctrl+S saves too', async () => {
    const { calls } = setup(
      '/server/abcd1234/files/edit#/plugins/config.yml',
      ['*'],
      [{ status: 200, body: 'motd: hello\nmax: 10\n' }, { status: 204 }, { status: 204 }],
    );
    const view = await editorView();
    expect(view.state.doc.toString()).toBe('motd: hello\nmax: 10\n');
    expect(screen.getByLabelText('Language')).toHaveValue('yaml');
    expect(document.title).toBe('Survival | config.yml');
    expect(screen.queryByTestId('unsaved')).toBeNull();

    typeAt(view, 'motd: hello'.length, ' world');
    expect(await screen.findByText('Unsaved changes')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Save Content' }));
    await waitFor(() => expect(calls()).toHaveLength(2));
    const write = calls()[1]!;
    expect(write.method).toBe('POST');
    expect(write.url).toBe(`${BASE}/write?file=%2Fplugins%2Fconfig.yml`);
    expect(write.headers['Content-Type']).toBe('text/plain');
    expect(write.raw).toBe('motd: hello world\nmax: 10\n');
    await waitFor(() => expect(screen.queryByTestId('unsaved')).toBeNull());

    typeAt(view, view.state.doc.length, 'pvp: true\n');
    await screen.findByText('Unsaved changes');
    fireEvent.keyDown(view.contentDOM, { key: 's', ctrlKey: true });
    await waitFor(() => expect(calls()).toHaveLength(3));
    expect(calls()[2]!.raw).toBe('motd: hello world\nmax: 10\npvp: true\n');
    await waitFor(() => expect(screen.queryByTestId('unsaved')).toBeNull());
  });

  it('keeps Windows line breaks when saving', async () => {
    const { calls } = setup(
      '/server/abcd1234/files/edit#/start.bat',
      ['*'],
      [{ status: 200, body: 'echo one\r\necho two\r\n' }, { status: 204 }],
    );
    const view = await editorView();
    typeAt(view, view.state.doc.length, 'pause');
    fireEvent.click(screen.getByRole('button', { name: 'Save Content' }));
    await waitFor(() => expect(calls()).toHaveLength(2));
    expect(calls()[1]!.raw).toBe('echo one\r\necho two\r\npause');
  });

  it('shows a refused save as an error and keeps the changes', async () => {
    setup(
      '/server/abcd1234/files/edit#/server.properties',
      ['*'],
      [
        { status: 200, body: 'motd=A server\n' },
        {
          status: 400,
          body: {
            errors: [
              { code: 'DiskSpace', status: '400', detail: 'There is not enough disk space available.' },
            ],
          },
        },
      ],
    );
    const view = await editorView();
    expect(screen.getByLabelText('Language')).toHaveValue('properties');
    typeAt(view, 0, '#');
    fireEvent.click(screen.getByRole('button', { name: 'Save Content' }));
    expect(await screen.findByText('There is not enough disk space available.')).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes[0]).toMatchObject({ key: 'files:view', type: 'error' });
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    expect(view.state.doc.toString()).toBe('#motd=A server\n');
  });

  it('asks a new file its name when saving, then writes it into the folder of the hash', async () => {
    const { router, calls } = setup(
      '/server/abcd1234/files/new#/plugins',
      ['file.create', 'file.read'],
      [{ status: 204 }],
    );
    const view = await editorView();
    expect(calls()).toHaveLength(0);
    expect(document.title).toBe('Survival | New File');
    typeAt(view, 0, 'enabled: true\n');
    fireEvent.click(screen.getByRole('button', { name: 'Create File' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create File' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create File' }));
    expect(await within(dialog).findByText('A file name must be provided.')).toBeInTheDocument();
    expect(calls()).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('File Name'), { target: { value: 'config.yml' } });
    expect(within(dialog).getByText('/home/container/plugins/config.yml')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create File' }));
    await waitFor(() => expect(calls()).toHaveLength(1));
    expect(calls()[0]).toMatchObject({
      method: 'POST',
      url: `${BASE}/write?file=%2Fplugins%2Fconfig.yml`,
      raw: 'enabled: true\n',
    });
    // Then the file is opened for editing, without a leave prompt.
    await waitFor(() => expect(router.state.location.pathname).toBe('/server/abcd1234/files/edit'));
    expect(router.state.location.hash).toBe('#/plugins/config.yml');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is read-only without file.update: no save button, and Ctrl+S sends nothing', async () => {
    const { calls } = setup(
      '/server/abcd1234/files/edit#/server.js',
      ['file.read', 'file.read-content'],
      [{ status: 200, body: "console.log('hi');\n" }],
    );
    const view = await editorView();
    expect(view.state.readOnly).toBe(true);
    expect(screen.getByLabelText('Language')).toHaveValue('javascript');
    expect(screen.queryByRole('button', { name: 'Save Content' })).toBeNull();
    expect(screen.getByText('You can read this file but not save changes to it.')).toBeInTheDocument();
    // The acknowledgement, not a pause: the shortcut's handler runs inside the dispatch and says
    // it took the key by cancelling the browser's "save page" (the dispatch returns false). A save
    // goes out from there without waiting on anything but promises, which act() lets settle.
    expect(fireEvent.keyDown(window, { key: 's', ctrlKey: true })).toBe(false);
    await act(async () => {});
    expect(calls()).toHaveLength(1);
  });

  it('explains the backup ignore file', async () => {
    setup('/server/abcd1234/files/edit#/.pteroignore', ['*'], [{ status: 200, body: '*.log\n' }]);
    await editorView();
    expect(screen.getByText(/left out of backups/)).toBeInTheDocument();
  });

  it('leaves at once while nothing changed', async () => {
    const { router } = setup(
      '/server/abcd1234/files/edit#/plugins/a.txt',
      ['*'],
      [{ status: 200, body: 'a\n' }],
    );
    await editorView();
    fireEvent.click(screen.getByRole('link', { name: 'plugins' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/server/abcd1234/files'));
    expect(router.state.location.hash).toBe('#/plugins');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before leaving with unsaved changes', async () => {
    const { router } = setup(
      '/server/abcd1234/files/edit#/eula.txt',
      ['*'],
      [{ status: 200, body: 'eula=false\n' }],
    );
    const view = await editorView();
    const crumbs = screen.getByRole('navigation', { name: 'Current folder' });
    expect(crumbs).toHaveTextContent('/home/container/eula.txt');
    const back = within(crumbs).getByRole('link', { name: 'home/container' });
    expect(back).toHaveAttribute('href', '/server/abcd1234/files#/');

    typeAt(view, 0, '#');
    fireEvent.click(back);
    const dialog = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    expect(dialog).toHaveTextContent('Your changes to eula.txt have not been saved.');
    expect(router.state.location.pathname).toBe('/server/abcd1234/files/edit');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(view.state.doc.toString()).toBe('#eula=false\n');
    expect(router.state.location.pathname).toBe('/server/abcd1234/files/edit');

    fireEvent.click(back);
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/server/abcd1234/files'));
    expect(router.state.location.hash).toBe('#/');
  });

  it('switches the highlighting when another mode is picked', async () => {
    setup('/server/abcd1234/files/edit#/notes', ['*'], [{ status: 200, body: 'key = "value"\n' }]);
    await editorView();
    expect(screen.getByLabelText('Language')).toHaveValue('text');
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'toml' } });
    await waitFor(() => expect(screen.getByTestId('code-editor')).toHaveAttribute('data-mode', 'toml'));
    // The TOML grammar loads and marks the string.
    await waitFor(() => expect(document.querySelector('.cm-line span')).not.toBeNull());
  });
});
