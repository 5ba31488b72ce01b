import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toSiteSettings } from '../../../api/types.ts';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { useServerStore } from '../store.ts';
import { NetworkPage } from './NetworkPage.tsx';
import { NOTES_SAVE_DELAY_MS } from './useAllocationNotes.ts';
import { setTestServer } from '../../../test/server.ts';

interface WireAllocation {
  id: number;
  ip: string;
  ip_alias: string | null;
  port: number;
  notes: string | null;
  is_default: boolean;
}

const GAME: WireAllocation = {
  id: 11,
  ip: '10.0.0.5',
  ip_alias: 'play.example.com',
  port: 25565,
  notes: 'Game',
  is_default: true,
};
const VOICE: WireAllocation = {
  id: 12,
  ip: '10.0.0.5',
  ip_alias: null,
  port: 25566,
  notes: null,
  is_default: false,
};
const QUERY: WireAllocation = {
  id: 13,
  ip: '10.0.0.5',
  ip_alias: null,
  port: 25567,
  notes: 'query',
  is_default: false,
};

const listAnswer = (allocations: WireAllocation[]) => ({
  status: 200,
  body: { object: 'list', data: allocations.map((attributes) => ({ object: 'allocation', attributes })) },
});
const itemAnswer = (attributes: WireAllocation) => ({
  status: 200,
  body: { object: 'allocation', attributes },
});
const refusal = (detail: string) => ({
  status: 400,
  body: { errors: [{ code: 'DisplayException', status: '400', detail }] },
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useServerStore.getState().clear();
  useGlobalStore.setState({ user: null, flashes: [] });
});

type Answer = { status: number; body?: unknown };

/**
 * Renders the page for a server with `limit` allowed allocations. `hold` keeps the answer to the
 * first request whose method and URL end match until `release` is called.
 */
function setup(
  permissions: string[],
  answers: Answer[],
  options: {
    limit?: number | null;
    hold?: { method: string; urlEnd: string };
    /** what the panel's SiteConfiguration says of PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED */
    clientAllocations?: boolean;
  } = {},
) {
  useGlobalStore.setState({
    settings: toSiteSettings({
      name: 'Talon',
      locale: 'en',
      recaptcha: { enabled: false, siteKey: '' },
      clientAllocations: { enabled: options.clientAllocations ?? true },
    }),
  });
  const stub = stubFetch(answers);
  let release: (() => void) | undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let read: () => void = () => {};
  const answerRead = new Promise<void>((resolve) => (read = resolve));
  let holding = options.hold;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (holding && (init?.method ?? 'GET') === holding.method && url.endsWith(holding.urlEnd)) {
      holding = undefined;
      const answer = stub.fn(input, init);
      return held
        .then(() => answer)
        .then((response) => {
          // Tells the test when the page has read the held answer's body.
          const text = response.text.bind(response);
          response.text = () => text().finally(read);
          return response;
        });
    }
    return stub.fn(input, init);
  });
  setTestServer(permissions, {
    description: null,
    feature_limits: {
      databases: 0,
      backups: 0,
      allocations: (options.limit === undefined ? 3 : options.limit) as number,
    },
  });
  renderAt(<NetworkPage />);
  return { stub, release: () => release?.(), answerRead };
}

/**
 * Once the page has read the held answer, what is left of its handling runs on promises only: a
 * macrotask comes after all of them, so then the page has acted on the answer (or left it be).
 */
async function answerHandled(answerRead: Promise<void>): Promise<void> {
  await answerRead;
  await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}

const row = (id: number) => screen.getByTestId(`allocation-${id}`);
const posts = (stub: ReturnType<typeof stubFetch>) => stub.calls.filter((c) => c.method === 'POST');
const primaryRows = () =>
  screen
    .queryAllByText('Primary')
    .map((badge) => badge.closest('li')?.getAttribute('data-testid'))
    .filter(Boolean);

describe('network page', () => {
  it('lists each allocation with its address, notes and the primary badge, titled Network', async () => {
    const { stub } = setup(['*'], [listAnswer([GAME, VOICE])]);
    await screen.findByTestId('allocation-11');
    expect(stub.calls[0]).toMatchObject({
      url: '/api/client/servers/abcd1234/network/allocations',
      method: 'GET',
    });
    expect(document.title).toBe('Survival | Network');
    // The alias when there is one, else the IP.
    expect(within(row(11)).getByRole('button', { name: 'play.example.com:25565' })).toBeInTheDocument();
    expect(within(row(11)).getByText('Alias of 10.0.0.5')).toBeInTheDocument();
    expect(within(row(12)).getByRole('button', { name: '10.0.0.5:25566' })).toBeInTheDocument();
    expect(within(row(11)).getByLabelText('Notes')).toHaveValue('Game');
    expect(within(row(12)).getByLabelText('Notes')).toHaveValue('');
    expect(primaryRows()).toEqual(['allocation-11']);
    // The primary one has neither action; the other both.
    expect(within(row(11)).queryByRole('button', { name: /Make .* primary/ })).toBeNull();
    expect(within(row(11)).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(within(row(12)).getByRole('button', { name: 'Make Primary: 10.0.0.5:25566' })).toBeInTheDocument();
    expect(within(row(12)).getByRole('button', { name: 'Remove 10.0.0.5:25566' })).toBeInTheDocument();
    expect(
      screen.getByText('You are currently using 2 of 3 allowed allocations for this server.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Allocation' })).toBeInTheDocument();
    // The server store follows the list (the console shows the primary address from it).
    expect(useServerStore.getState().server?.allocations.map((a) => a.id)).toEqual([11, 12]);
  });

  it('shows a new primary at once and keeps it when the panel agrees', async () => {
    const { stub, release, answerRead } = setup(
      ['*'],
      [listAnswer([GAME, VOICE]), itemAnswer({ ...VOICE, is_default: true })],
      { hold: { method: 'POST', urlEnd: '/primary' } },
    );
    await screen.findByTestId('allocation-12');
    fireEvent.click(within(row(12)).getByRole('button', { name: /^Make Primary/ }));
    await waitFor(() => expect(primaryRows()).toEqual(['allocation-12']));
    expect(posts(stub)).toEqual([
      expect.objectContaining({ url: '/api/client/servers/abcd1234/network/allocations/12/primary' }),
    ]);
    expect(useServerStore.getState().server?.allocations.find((a) => a.isDefault)?.id).toBe(12);
    release();
    await waitFor(() => expect(stub.calls).toHaveLength(2));
    await answerHandled(answerRead);
    expect(primaryRows()).toEqual(['allocation-12']);
    expect(within(row(11)).getByRole('button', { name: /^Make Primary/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('puts the old primary back and shows the message when the panel refuses', async () => {
    const { release } = setup(['*'], [listAnswer([GAME, VOICE]), refusal('The node is unhappy.')], {
      hold: { method: 'POST', urlEnd: '/primary' },
    });
    await screen.findByTestId('allocation-12');
    fireEvent.click(within(row(12)).getByRole('button', { name: /^Make Primary/ }));
    await waitFor(() => expect(primaryRows()).toEqual(['allocation-12']));
    release();
    expect(await screen.findByText('The node is unhappy.')).toBeInTheDocument();
    expect(primaryRows()).toEqual(['allocation-11']);
    expect(useServerStore.getState().server?.allocations.find((a) => a.isDefault)?.id).toBe(11);
    expect(useGlobalStore.getState().flashes).toEqual([
      expect.objectContaining({ key: 'server:network', type: 'error' }),
    ]);
  });

  it('sends the notes once, 750 ms after the last keystroke', async () => {
    const { stub } = setup(['*'], [listAnswer([GAME, VOICE]), itemAnswer({ ...VOICE, notes: 'Voice chat' })]);
    const notes = within(await screen.findByTestId('allocation-12')).getByLabelText('Notes');
    vi.useFakeTimers();
    for (const value of ['V', 'Vo', 'Voice', 'Voice chat']) {
      fireEvent.change(notes, { target: { value } });
      act(() => void vi.advanceTimersByTime(500));
    }
    expect(posts(stub)).toHaveLength(0);
    expect(within(row(12)).getByText('Saving…')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(249));
    expect(posts(stub)).toHaveLength(0);
    act(() => void vi.advanceTimersByTime(1));
    expect(posts(stub)).toEqual([
      expect.objectContaining({
        url: '/api/client/servers/abcd1234/network/allocations/12',
        body: { notes: 'Voice chat' },
      }),
    ]);
    vi.useRealTimers();
    expect(await within(row(12)).findByText(/Saved/)).toBeInTheDocument();
    expect(notes).toHaveValue('Voice chat');
    expect(posts(stub)).toHaveLength(1);
  });

  it('shows a refused note in the flash area', async () => {
    setup(
      ['*'],
      [
        listAnswer([GAME, VOICE]),
        {
          status: 422,
          body: {
            errors: [
              {
                code: 'ValidationException',
                status: '422',
                detail: 'The notes may not be greater than 256 characters.',
                meta: { source_field: 'notes', rule: 'max' },
              },
            ],
          },
        },
      ],
    );
    const notes = within(await screen.findByTestId('allocation-12')).getByLabelText('Notes');
    fireEvent.change(notes, { target: { value: 'x'.repeat(300) } });
    expect(await screen.findByText('The notes may not be greater than 256 characters.')).toBeInTheDocument();
    expect(within(row(12)).getByText('Not saved')).toBeInTheDocument();
  });

  it('without allocation.update the notes are read-only and there is no Make Primary', async () => {
    const { stub } = setup(['allocation.read', 'allocation.delete'], [listAnswer([GAME, VOICE])]);
    const notes = within(await screen.findByTestId('allocation-12')).getByLabelText('Notes');
    expect(notes).toHaveAttribute('readonly');
    // Fake timers past the save delay instead of a pause: nothing may be sent, however slow the machine.
    vi.useFakeTimers();
    fireEvent.change(notes, { target: { value: 'mine' } });
    await act(() => vi.advanceTimersByTimeAsync(NOTES_SAVE_DELAY_MS * 2));
    expect(notes).toHaveValue('');
    expect(stub.calls).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /^Make Primary/ })).toBeNull();
    // allocation.delete alone: Remove on the other one only; without allocation.create no limit line.
    expect(screen.getAllByRole('button', { name: /^Remove/ })).toHaveLength(1);
    expect(screen.queryByTestId('allocation-limit')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create Allocation' })).toBeNull();
  });

  it('has no Remove button without allocation.delete', async () => {
    setup(['allocation.read', 'allocation.update'], [listAnswer([GAME, VOICE])]);
    await screen.findByTestId('allocation-12');
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
    expect(within(row(12)).getByRole('button', { name: /^Make Primary/ })).toBeInTheDocument();
  });

  it('removes an allocation after confirmation', async () => {
    const { stub } = setup(['*'], [listAnswer([GAME, VOICE, QUERY]), { status: 204 }]);
    await screen.findByTestId('allocation-12');
    fireEvent.click(within(row(12)).getByRole('button', { name: 'Remove 10.0.0.5:25566' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/10\.0\.0\.5:25566 will be taken off this server/)).toBeInTheDocument();
    expect(stub.calls).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByTestId('allocation-12')).toBeNull());
    expect(stub.calls[1]).toMatchObject({
      method: 'DELETE',
      url: '/api/client/servers/abcd1234/network/allocations/12',
    });
    expect(screen.getByTestId('allocation-13')).toBeInTheDocument();
    expect(
      screen.getByText('You are currently using 2 of 3 allowed allocations for this server.'),
    ).toBeInTheDocument();
  });

  it('on a refused removal shows the message, then reloads the list so the allocation is back', async () => {
    const { stub } = setup(
      ['*'],
      [
        listAnswer([GAME, VOICE]),
        refusal('You cannot delete allocations for this server: no allocation limit is set.'),
        listAnswer([GAME, VOICE]),
      ],
    );
    await screen.findByTestId('allocation-12');
    fireEvent.click(within(row(12)).getByRole('button', { name: /^Remove/ }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(
      await screen.findByText('You cannot delete allocations for this server: no allocation limit is set.'),
    ).toBeInTheDocument();
    expect(await screen.findByTestId('allocation-12')).toBeInTheDocument();
    expect(stub.calls.map((c) => c.method)).toEqual(['GET', 'DELETE', 'GET']);
  });

  it('creates an allocation, and the create button goes once the limit is reached', async () => {
    const { stub } = setup(['*'], [listAnswer([GAME, VOICE]), itemAnswer(QUERY)]);
    await screen.findByTestId('allocation-12');
    fireEvent.click(screen.getByRole('button', { name: 'Create Allocation' }));
    expect(await screen.findByTestId('allocation-13')).toBeInTheDocument();
    expect(stub.calls[1]).toMatchObject({
      method: 'POST',
      url: '/api/client/servers/abcd1234/network/allocations',
    });
    expect(
      screen.getByText('You are currently using 3 of 3 allowed allocations for this server.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Allocation' })).toBeNull();
  });

  it('shows no create button at the limit, and neither without a limit', async () => {
    setup(['*'], [listAnswer([GAME, VOICE, QUERY])]);
    await screen.findByTestId('allocation-13');
    expect(
      screen.getByText('You are currently using 3 of 3 allowed allocations for this server.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Allocation' })).toBeNull();
    cleanup();
    setup(['*'], [listAnswer([GAME])], { limit: 0 });
    await screen.findByTestId('allocation-11');
    expect(screen.queryByTestId('allocation-limit')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create Allocation' })).toBeNull();
  });

  it('offers no create button while the panel has client allocations disabled', async () => {
    const { stub } = setup(['*'], [listAnswer([GAME])], { clientAllocations: false });
    await screen.findByTestId('allocation-11');
    expect(
      screen.getByText('You are currently using 1 of 3 allowed allocations for this server.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Allocation' })).toBeNull();
    expect(posts(stub)).toHaveLength(0);
  });

  it("shows the panel's message when a create is refused", async () => {
    setup(['*'], [listAnswer([GAME]), refusal('Server auto-allocation is not enabled for this instance.')]);
    await screen.findByTestId('allocation-11');
    fireEvent.click(screen.getByRole('button', { name: 'Create Allocation' }));
    expect(
      await screen.findByText('Server auto-allocation is not enabled for this instance.'),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });
});
