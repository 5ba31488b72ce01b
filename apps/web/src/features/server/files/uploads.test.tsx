import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt } from '../../../test/render.tsx';
import { useServerStore } from '../store.ts';
import { FilesPage } from './FilesPage.tsx';
import { useFileSelection } from './selection.ts';
import { setTestServer } from '../../../test/server.ts';

// The upload flow of the file manager against a real HTTP endpoint in the daemon's place: the
// browser's XMLHttpRequest really sends each multipart body, and the endpoint answers as the
// daemon's `POST /upload/file` does (docs/daemon.md "Request limits": a refused request writes
// nothing). The panel's calls (list, signed URL) are answered by a fetch stub.

interface Received {
  token: string;
  directory: string;
  names: string[];
}

interface FakeDaemon {
  url: string;
  received: Received[];
  /** Requests that were answered with success, in order. */
  stored: string[][];
  close: () => Promise<void>;
}

type Refusal = { status: number; error: string } | null;

/**
 * `decide` sees the file names of each request and answers a refusal or null (stored). `hold`
 * keeps a request unanswered until its promise settles.
 */
async function startDaemon(
  decide: (names: string[]) => Refusal = () => null,
  hold?: (index: number) => Promise<void> | undefined,
): Promise<FakeDaemon> {
  const received: Received[] = [];
  const stored: string[][] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'access-control-allow-headers': '*' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = new URL(req.url ?? '/', 'http://daemon');
    const names = [
      ...Buffer.concat(chunks)
        .toString('latin1')
        .matchAll(/filename="([^"]*)"/g),
    ].map((m) => m[1]!);
    const index = received.push({
      token: target.searchParams.get('token') ?? '',
      directory: target.searchParams.get('directory') ?? '',
      names,
    });
    await hold?.(index - 1);
    const refusal = decide(names);
    if (refusal) {
      res.writeHead(refusal.status, { ...cors, 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: refusal.error }));
      return;
    }
    stored.push(names);
    res.writeHead(200, cors).end();
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    stored,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let daemon: FakeDaemon | null = null;

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  useServerStore.getState().clear();
  useFileSelection.getState().clear();
  useGlobalStore.setState({ flashes: [] });
  await daemon?.close();
  daemon = null;
});

/** The file manager as the server's owner, the panel answering lists and fresh signed URLs. */
function openFiles(target: FakeDaemon) {
  const panelCalls: string[] = [];
  let tokens = 0;
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : input.toString();
    panelCalls.push(new URL(url, 'http://panel').pathname);
    const body = url.includes('/files/upload')
      ? { object: 'signed_url', attributes: { url: `${target.url}/upload/file?token=t${++tokens}` } }
      : { object: 'list', data: [] };
    return Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
  });
  setTestServer(['*']);
  renderAt(<FilesPage />, { path: '/server/abcd1234/files' });
  const lists = () => panelCalls.filter((p) => p.endsWith('/files/list')).length;
  return { panelCalls, lists };
}

const files = (count: number, prefix = 'f') =>
  Array.from(
    { length: count },
    (_, i) => new File([`content ${i}\n`], `${prefix}${String(i).padStart(3, '0')}.txt`),
  );

async function choose(chosen: File[]) {
  const input = await screen.findByTestId('upload-input');
  fireEvent.change(input, { target: { files: chosen } });
}

/** Waits until the upload is over: its bar is gone and the list was read again. */
async function finished(lists: () => number) {
  await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  await waitFor(() => expect(lists()).toBe(2));
}

describe('uploads in batches', () => {
  it('sends 120 files in batches of at most 50, each with its own signed URL, under one progress bar', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    daemon = await startDaemon(undefined, (index) => (index === 0 ? released : undefined));
    const { lists } = openFiles(daemon);
    await screen.findByText('This directory seems to be empty.');
    const chosen = files(120);
    await choose(chosen);

    // While the first batch is in flight: one bar and one Stop button for all 120 files.
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress of 120 files' });
    expect(screen.getAllByRole('progressbar')).toEqual([bar]);
    expect(screen.getByRole('button', { name: 'Stop uploading 120 files' })).toBeInTheDocument();
    await waitFor(() => expect(daemon!.received).toHaveLength(1));
    release();

    await finished(lists);
    expect(daemon.received.map((r) => r.names.length)).toEqual([50, 50, 20]);
    expect(new Set(daemon.received.map((r) => r.token)).size).toBe(3);
    expect(daemon.received.every((r) => r.directory === '/')).toBe(true);
    expect(daemon.stored.flat()).toEqual(chosen.map((f) => f.name));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('names the file over the per-file limit and uploads every other one', async () => {
    daemon = await startDaemon((names) =>
      names.includes('big.bin')
        ? { status: 400, error: 'File big.bin is larger than the maximum file upload size of 1 MB.' }
        : null,
    );
    const { lists } = openFiles(daemon);
    await screen.findByText('This directory seems to be empty.');
    const small = files(60);
    const big = new File([new Uint8Array(2 * 1024 * 1024)], 'big.bin');
    await choose([...small.slice(0, 55), big, ...small.slice(55)]);

    await finished(lists);
    expect(daemon.stored.flat().sort()).toEqual(small.map((f) => f.name));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Could not upload big.bin. Files larger than 1 MB cannot be uploaded to this server. The other files were uploaded.',
    );
  });

  it('keeps the batches that arrived when a later one is refused, and names the files of the refused one', async () => {
    daemon = await startDaemon((names) =>
      names.includes('f050.txt')
        ? { status: 507, error: 'There is not enough space available on this server.' }
        : null,
    );
    const { lists } = openFiles(daemon);
    await screen.findByText('This directory seems to be empty.');
    const chosen = files(120);
    await choose(chosen);

    await finished(lists);
    // The second batch (f050 to f099) failed; the first and the third are stored.
    expect(daemon.received).toHaveLength(3);
    expect(daemon.stored.flat()).toEqual([...chosen.slice(0, 50), ...chosen.slice(100)].map((f) => f.name));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Could not upload f050.txt, f051.txt, f052.txt, f053.txt, f054.txt and 45 more. There is not enough space available on this server. The other files were uploaded.',
    );
  });

  it('follows a node configured for fewer files per request than a batch', async () => {
    daemon = await startDaemon((names) =>
      names.length > 7 ? { status: 400, error: 'An upload may contain at most 7 files.' } : null,
    );
    const { lists } = openFiles(daemon);
    await screen.findByText('This directory seems to be empty.');
    const chosen = files(20);
    await choose(chosen);

    await finished(lists);
    expect(daemon.received.map((r) => r.names.length)).toEqual([20, 7, 7, 6]);
    expect(daemon.stored.flat()).toEqual(chosen.map((f) => f.name));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('stops with Stop: the batches sent stay, nothing more is sent and no error is shown', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    daemon = await startDaemon(undefined, (index) => (index === 1 ? released : undefined));
    const { lists } = openFiles(daemon);
    await screen.findByText('This directory seems to be empty.');
    const chosen = files(120);
    await choose(chosen);

    await waitFor(() => expect(daemon!.received).toHaveLength(2));
    const stop = screen.getByRole('button', { name: 'Stop uploading 120 files' });
    stop.focus();
    fireEvent.click(stop);
    await finished(lists);
    release();
    // The list was read after the upload ended, so no later batch can still be on its way.
    expect(daemon.received).toHaveLength(2);
    expect(daemon.stored).toEqual([chosen.slice(0, 50).map((f) => f.name)]);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
