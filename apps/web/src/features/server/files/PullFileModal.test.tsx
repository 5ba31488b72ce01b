import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { FILE_PULL_MESSAGES } from '@talon/shared/validation/file-pull';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt } from '../../../test/render.tsx';
import { setTestServer } from '../../../test/server.ts';
import { useServerStore } from '../store.ts';
import { FilesPage } from './FilesPage.tsx';
import { PullFileModal } from './PullFileModal.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useServerStore.getState().clear();
  useGlobalStore.setState({ flashes: [] });
});

const PULL = '/api/client/servers/abcd1234/files/pull';
const URL_TO_PULL = 'https://mirror.example/mods/pack.zip';

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** fetch answered per "METHOD path" (query left out); unknown calls get a 500. */
function stubRoutes(routes: Record<string, (call: Call) => Promise<Response> | Response>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    const call = { method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const handler = routes[`${method} ${url.split('?')[0]}`];
    return handler ? handler(call) : new Response('{}', { status: 500 });
  });
  return calls;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const running = (bytes: number, total: number | null) =>
  json({
    object: 'list',
    data: [
      {
        object: 'remote_download',
        attributes: {
          identifier: 'd1',
          url: URL_TO_PULL,
          directory: '/mods',
          file_name: 'pack.zip',
          progress: total ? bytes / total : 0,
          bytes,
          total_bytes: total,
        },
      },
    ],
  });

function openModal(onPulled = vi.fn(), onDismissed = vi.fn()) {
  setTestServer(['*']);
  renderAt(<PullFileModal visible directory="/mods" onPulled={onPulled} onDismissed={onDismissed} />);
  return { onPulled, onDismissed };
}

describe('Download from URL', () => {
  it('is an action of the file manager for users with file.create only', async () => {
    stubRoutes({ 'GET /api/client/servers/abcd1234/files/list': () => json({ object: 'list', data: [] }) });
    setTestServer(['file.read', 'file.create']);
    const view = renderAt(<FilesPage />, { path: '/server/abcd1234/files' });
    const button = await screen.findByRole('button', { name: 'Download from URL' });
    fireEvent.click(button);
    // The URL field takes the focus: type, then Enter.
    await waitFor(() => expect(screen.getByLabelText('URL')).toHaveFocus());
    view.unmount();

    setTestServer(['file.read']);
    renderAt(<FilesPage />, { path: '/server/abcd1234/files' });
    await screen.findByText(/empty/i);
    expect(screen.queryByRole('button', { name: 'Download from URL' })).toBeNull();
  });

  it('checks the URL before sending anything', async () => {
    const calls = stubRoutes({});
    openModal();
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByText(FILE_PULL_MESSAGES.urlRequired)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'mirror.example/pack.zip' } });
    fireEvent.submit(screen.getByLabelText('URL').closest('form')!);
    expect(await screen.findByText(FILE_PULL_MESSAGES.urlInvalid)).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('downloads in the foreground into the folder, showing bytes and percent, then reports it done', async () => {
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    let polls = 0;
    const calls = stubRoutes({
      [`POST ${PULL}`]: async () => {
        await done;
        return new Response(null, { status: 204 });
      },
      [`GET ${PULL}`]: () => (polls++ === 0 ? running(1024, 4096) : running(3072, 4096)),
    });
    const { onPulled } = openModal();
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: ` ${URL_TO_PULL} ` } });
    fireEvent.submit(screen.getByLabelText('URL').closest('form')!);
    expect(await screen.findByText('1.00 kB of 4.00 kB (25%)')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Download progress' })).toHaveAttribute('value', '25');
    // Asked again each second while it runs.
    expect(await screen.findByText('3.00 kB of 4.00 kB (75%)', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByLabelText('URL')).toBeDisabled();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      url: URL_TO_PULL,
      directory: '/mods',
      filename: null,
      use_header: true,
      foreground: true,
    });
    finish();
    await waitFor(() => expect(onPulled).toHaveBeenCalledWith('/mods'));
  });

  it('shows the bytes alone when the size is unknown, and the reason of a refusal in words', async () => {
    let refuse!: () => void;
    const refused = new Promise<void>((r) => (refuse = r));
    stubRoutes({
      [`POST ${PULL}`]: async () => {
        await refused;
        return json(
          {
            errors: [
              {
                code: 'DaemonConnectionException',
                status: '400',
                detail:
                  'An error occurred on the remote host: The address 10.0.0.5 is on a private network and cannot be downloaded from. (request id: r1)',
              },
            ],
          },
          400,
        );
      },
      [`GET ${PULL}`]: () => running(2048, null),
    });
    const { onPulled } = openModal();
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: URL_TO_PULL } });
    fireEvent.change(screen.getByLabelText('File Name (optional)'), { target: { value: 'renamed.zip' } });
    fireEvent.submit(screen.getByLabelText('URL').closest('form')!);
    expect(await screen.findByText('2.00 kB received')).toBeTruthy();
    refuse();
    expect(await screen.findByText(/The address 10\.0\.0\.5 is on a private network/)).toBeTruthy();
    expect(screen.getByLabelText('URL')).not.toBeDisabled();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(onPulled).not.toHaveBeenCalled();
  });
});
