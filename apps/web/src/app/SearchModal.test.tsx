import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt, stubFetch } from '../test/render.tsx';
import {
  SearchModal,
  isApplePlatform,
  isTypingTarget,
  searchShortcutKeys,
  useSearchShortcut,
} from './SearchModal.tsx';
import { useGlobalStore } from './store.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  useGlobalStore.setState({ user: null });
});

const server = (n: number) => ({
  object: 'server',
  attributes: {
    identifier: `id${n}`,
    internal_id: n,
    uuid: `uuid-${n}`,
    name: `Server ${n}`,
    description: '',
    node: 'Local',
    status: null,
    relationships: {
      allocations: {
        data: [{ attributes: { id: n, ip: '10.0.0.1', ip_alias: null, port: 25000 + n, is_default: true } }],
      },
    },
  },
});

/** The modal with a button outside it that closes it. */
function Closable() {
  const [visible, setVisible] = useState(true);
  return (
    <>
      <button onClick={() => setVisible(false)}>close search</button>
      <SearchModal visible={visible} onDismissed={() => setVisible(false)} />
    </>
  );
}

describe('SearchModal', () => {
  it('asks for three characters, then searches (debounced) and shows at most 5 results', async () => {
    const stub = stubFetch([{ status: 200, body: { data: [1, 2, 3, 4, 5, 6, 7].map(server) } }]);
    vi.stubGlobal('fetch', stub.fn);
    useGlobalStore.setState({
      user: {
        uuid: 'u',
        username: 'a',
        email: 'a@b.c',
        language: 'en',
        rootAdmin: true,
        useTotp: false,
        createdAt: null,
        updatedAt: null,
      },
    });
    renderAt(<SearchModal visible onDismissed={() => undefined} />);
    expect(
      screen.getByText('Enter a server name, uuid, or allocation to begin searching.'),
    ).toBeInTheDocument();
    const input = screen.getByLabelText('Search term');
    fireEvent.change(input, { target: { value: 'ab' } });
    expect(
      screen.getByText('Please enter at least three characters to begin searching.'),
    ).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'abc' } });
    expect(stub.calls).toHaveLength(0);
    await waitFor(() => expect(screen.getAllByTestId('search-result')).toHaveLength(5), { timeout: 2000 });
    expect(stub.calls).toHaveLength(1);
    expect(decodeURIComponent(stub.calls[0]!.url)).toBe('/api/client?page=1&type=admin-all&filter[*]=abc');
    expect(screen.getByText('Server 1').closest('a')).toHaveAttribute('href', '/server/id1');
    expect(screen.getByText('10.0.0.1:25001')).toBeInTheDocument();
  });

  it('shows a failed search as an error flash keyed search, and forgets it when closed', async () => {
    const stub = stubFetch([{ status: 502, body: { errors: [{ detail: 'The panel is restarting.' }] } }]);
    vi.stubGlobal('fetch', stub.fn);
    renderAt(<Closable />);
    fireEvent.change(screen.getByLabelText('Search term'), { target: { value: 'survival' } });
    expect(
      await screen.findByText('The panel is restarting.', undefined, { timeout: 2000 }),
    ).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes).toEqual([
      expect.objectContaining({ key: 'search', type: 'error', title: 'Error' }),
    ]);
    fireEvent.click(screen.getByText('close search'));
    await waitFor(() => expect(useGlobalStore.getState().flashes).toEqual([]));
  });

  it('knows which targets take typing', () => {
    expect(isTypingTarget(document.createElement('input'))).toBe(true);
    expect(isTypingTarget(document.createElement('textarea'))).toBe(true);
    expect(isTypingTarget(document.createElement('div'))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});

describe('the search shortcut', () => {
  function Opener() {
    const [opened, setOpened] = useState(0);
    useSearchShortcut(() => setOpened((n) => n + 1));
    return (
      <>
        <p>opened {opened}</p>
        <input aria-label="typing here" />
      </>
    );
  }

  it('opens with meta + / (the spec) and with Ctrl + / (Linux and Windows), never while typing', async () => {
    renderAt(<Opener />);
    fireEvent.keyDown(document.body, { key: '/', metaKey: true });
    await screen.findByText('opened 1');
    fireEvent.keyDown(document.body, { key: '/', ctrlKey: true });
    await screen.findByText('opened 2');
    fireEvent.keyDown(document.body, { key: '/' });
    fireEvent.keyDown(screen.getByLabelText('typing here'), { key: '/', ctrlKey: true });
    expect(screen.getByText('opened 2')).toBeInTheDocument();
  });

  it('names the key of the platform: ⌘ on Apple systems, Ctrl elsewhere', () => {
    expect(isApplePlatform({ platform: 'MacIntel', userAgent: '' })).toBe(true);
    expect(isApplePlatform({ platform: 'Linux x86_64', userAgent: '' })).toBe(false);
    expect(isApplePlatform({ platform: 'Win32', userAgent: '' })).toBe(false);
    expect(searchShortcutKeys(true)).toBe('⌘ /');
    expect(searchShortcutKeys(false)).toBe('Ctrl /');
  });
});
