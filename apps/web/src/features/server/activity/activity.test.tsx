import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import type { ActivityEvent } from '../../../api/activity.ts';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { setTestServer } from '../../../test/server.ts';
import { useServerStore } from '../store.ts';
import { describeEvent } from './describe.ts';
import { ServerActivityPage } from './ServerActivityPage.tsx';

const t = i18next.getFixedT('en', 'activity');

const ALICE = {
  uuid: 'alice-0001',
  username: 'alice',
  email: 'alice@example.com',
  image: 'https://gravatar.com/avatar/abc',
  '2fa_enabled': false,
  created_at: '2026-01-02T03:04:05+00:00',
};

function wire(overrides: Record<string, unknown> = {}) {
  return {
    object: 'activity_log',
    attributes: {
      id: 'a1',
      batch: null,
      event: 'server:file.delete',
      is_api: false,
      ip: '203.0.113.9',
      description: null,
      properties: { directory: '/plugins/', files: ['a.jar', 'b.jar', 'c.jar'], count: 3 },
      has_additional_metadata: true,
      timestamp: new Date(Date.now() - 5 * 60_000).toISOString(),
      relationships: { actor: { object: 'user', attributes: ALICE } },
      ...overrides,
    },
  };
}

const page = (items: unknown[], current = 1, total = 1) => ({
  status: 200,
  body: {
    object: 'list',
    data: items,
    meta: {
      pagination: {
        total: items.length,
        count: items.length,
        per_page: 25,
        current_page: current,
        total_pages: total,
      },
    },
  },
});

function event(overrides: Partial<ActivityEvent>): ActivityEvent {
  return {
    id: 'x',
    batch: null,
    event: 'server:file.delete',
    isApi: false,
    ip: null,
    description: null,
    properties: {},
    hasAdditionalMetadata: false,
    timestamp: new Date(),
    actor: { uuid: 'u', username: 'alice', email: 'alice@example.com', image: '' },
    ...overrides,
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useServerStore.getState().clear();
  useGlobalStore.setState((s) => ({ flashes: [], settings: { ...s.settings, remoteAvatars: false } }));
});

function setup(answers: { status: number; body?: unknown }[]) {
  const stub = stubFetch(answers);
  vi.stubGlobal('fetch', stub.fn);
  setTestServer(['*']);
  renderAt(<ServerActivityPage />);
  return stub;
}

describe('describeEvent', () => {
  it('turns an event into a sentence with its actor and properties', () => {
    expect(
      describeEvent(event({ properties: { directory: '/plugins/', files: ['a', 'b', 'c'], count: 3 } }), t),
    ).toBe('alice deleted 3 files in /plugins');
    expect(describeEvent(event({ properties: { directory: '/', files: ['a.jar'], count: 1 } }), t)).toBe(
      'alice deleted a.jar in /',
    );
    expect(
      describeEvent(
        event({ event: 'server:sftp.rename', properties: { files: [{ from: '/a', to: '/b' }], count: 1 } }),
        t,
      ),
    ).toBe('alice renamed /a → /b over SFTP');
    expect(
      describeEvent(event({ event: 'server:console.command', properties: { command: 'say hi' } }), t),
    ).toBe('alice ran "say hi" in the console');
    expect(
      describeEvent(
        event({ event: 'server:file.uploaded', properties: { file: 'map.zip', directory: '/world/' } }),
        t,
      ),
    ).toBe('alice uploaded map.zip to /world');
  });
  it('names the system when no user did it, and falls back to the key for an unknown event', () => {
    expect(describeEvent(event({ event: 'server:install.completed', actor: null }), t)).toBe(
      'The installation finished',
    );
    expect(describeEvent(event({ event: 'server:power.start', actor: null }), t)).toBe(
      'The system started the server',
    );
    expect(describeEvent(event({ event: 'server:something.new' }), t)).toBe('server:something.new');
  });

  it('has a sentence for every server event the panel logs', () => {
    const panelSources = path.join(import.meta.dirname, '../../../../../panel/src');
    const logged = new Set<string>();
    for (const file of readdirSync(panelSources, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const text = readFileSync(path.join(panelSources, file), 'utf8');
      for (const m of text.matchAll(/'(server:[a-z-]+(?:\.[a-z-]+)+)'/gu)) logged.add(m[1]!);
    }
    expect(logged.size).toBeGreaterThan(20);
    // `count` picks a plural form where a sentence has them.
    const missing = [...logged].filter(
      (name) => describeEvent(event({ event: name, properties: { count: 2 } }), t) === name,
    );
    expect(missing).toEqual([]);
  });
});

describe('server activity page', () => {
  it('asks for the newest events with their actor and shows one readable line each', async () => {
    const stub = setup([page([wire()])]);
    const line = await screen.findByTestId('activity-line');
    expect(line).toHaveTextContent('alice deleted 3 files in /plugins');
    expect(document.title).toBe('Survival | Activity');
    const url = new URL(stub.calls[0]!.url, 'http://x');
    expect(url.pathname).toBe('/api/client/servers/abcd1234/activity');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      page: '1',
      per_page: '25',
      sort: '-timestamp',
      include: 'actor',
    });
    const row = screen.getByTestId('activity-row');
    // Relative time, the exact one on hover.
    const time = within(row).getByText('5 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('title', new Date(time.getAttribute('datetime')!).toLocaleString());
    expect(within(row).getByText('IP 203.0.113.9')).toBeInTheDocument();
    // The properties only on demand.
    expect(screen.queryByTestId('activity-properties')).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Show details' }));
    expect(screen.getByTestId('activity-properties')).toHaveTextContent('"files": [');
    expect(within(row).getByRole('button', { name: 'Hide details' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  it('filters by event, from the field or from an event name, back to page 1', async () => {
    const stub = setup([
      page([wire()], 1, 3),
      page([wire({ id: 'b', event: 'server:console.command', properties: { command: 'list' } })]),
      page([wire({ id: 'c' })]),
      page([]),
    ]);
    await screen.findByTestId('activity-line');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(stub.calls).toHaveLength(2));
    fireEvent.change(screen.getByLabelText('Filter by event'), { target: { value: ' server:file ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(stub.calls).toHaveLength(3));
    const filtered = new URL(stub.calls[2]!.url, 'http://x').searchParams;
    expect(filtered.get('filter[event]')).toBe('server:file');
    expect(filtered.get('page')).toBe('1');
    await screen.findByText('alice deleted 3 files in /plugins');
    // The event name under a line filters on it.
    fireEvent.click(screen.getByRole('button', { name: 'Show only server:file.delete' }));
    await waitFor(() => expect(stub.calls).toHaveLength(4));
    expect(new URL(stub.calls[3]!.url, 'http://x').searchParams.get('filter[event]')).toBe(
      'server:file.delete',
    );
    expect(await screen.findByTestId('activity-empty')).toHaveTextContent('No event matches this filter.');
    expect(screen.getByLabelText('Filter by event')).toHaveValue('server:file.delete');
  });

  it('pages through the log', async () => {
    const stub = setup([
      page([wire()], 1, 2),
      page([wire({ id: 'b', event: 'server:console.command', properties: { command: 'list' } })], 2, 2),
      page([wire()], 1, 2),
    ]);
    await screen.findByText('Page 1 of 2');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('alice ran "list" in the console')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(new URL(stub.calls[1]!.url, 'http://x').searchParams.get('page')).toBe('2');
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('Page 1 of 2');
    expect(new URL(stub.calls[2]!.url, 'http://x').searchParams.get('page')).toBe('1');
  });

  it('says why the log could not be loaded and tries again on request', async () => {
    const stub = setup([
      {
        status: 403,
        body: {
          errors: [
            { code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' },
          ],
        },
      },
      page([]),
    ]);
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('activity-empty')).toHaveTextContent('Nothing has been recorded yet.');
    expect(stub.calls).toHaveLength(2);
    expect(screen.queryByText('This action is unauthorized.')).toBeNull();
  });

  it('shows initials for an actor whose picture cannot load and hides an IP the panel withheld', async () => {
    useGlobalStore.setState((s) => ({ settings: { ...s.settings, remoteAvatars: true } }));
    setup([page([wire({ ip: null })])]);
    const row = await screen.findByTestId('activity-row');
    fireEvent.error(row.querySelector('img')!);
    expect(within(row).getByTestId('avatar-initials')).toHaveTextContent('AL');
    expect(within(row).queryByText(/^IP /)).toBeNull();
  });

  it('marks an event nobody signed in did with the system mark, not a question mark', async () => {
    setup([page([wire({ event: 'server:install.completed', relationships: {} })])]);
    const row = await screen.findByTestId('activity-row');
    expect(within(row).getByTestId('avatar-system')).toBeInTheDocument();
    expect(within(row).queryByTestId('avatar-initials')).toBeNull();
    expect(row).not.toHaveTextContent('?');
  });
});
