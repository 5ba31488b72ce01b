import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { useServerStore } from '../store.ts';
import { dockerImageRules } from './dockerImageRules.ts';
import { StartupPage } from './StartupPage.tsx';
import { VARIABLE_SAVE_DELAY_MS } from './useVariableEditor.ts';
import { variableInputKind } from './variableInput.ts';
import { setTestServer } from '../../../test/server.ts';

const JAVA_17 = 'ghcr.io/talon/java:17';
const JAVA_21 = 'ghcr.io/talon/java:21';
const TWO_IMAGES = { 'Java 17': JAVA_17, 'Java 21': JAVA_21 };

interface WireVariable {
  name: string;
  description: string;
  env_variable: string;
  default_value: string;
  server_value: string | null;
  is_editable: boolean;
  rules: string;
}

const MAX_PLAYERS: WireVariable = {
  name: 'Maximum players',
  description: 'How many players may be connected at once.',
  env_variable: 'MAX_PLAYERS',
  default_value: '10',
  server_value: '10',
  is_editable: true,
  rules: 'required|integer|between:1,500',
};
const MOTD: WireVariable = {
  name: 'Message of the day',
  description: 'Shown to every player who connects.',
  env_variable: 'MOTD',
  default_value: 'Welcome!',
  server_value: 'hi',
  is_editable: true,
  rules: 'required|string|max:120',
};
const WORLD_NAME: WireVariable = {
  name: 'World name',
  description: 'The world file.',
  env_variable: 'WORLD_NAME',
  default_value: 'world',
  server_value: 'world',
  is_editable: false,
  rules: 'required|alpha_dash|max:32',
};

const command = (players: string, motd: string) => `node server.js --players ${players} --motd "${motd}"`;

function startupAnswer(
  variables: WireVariable[] = [MAX_PLAYERS, MOTD, WORLD_NAME],
  images: Record<string, string> | [] = TWO_IMAGES,
) {
  return {
    status: 200,
    body: {
      object: 'list',
      data: variables.map((attributes) => ({ object: 'egg_variable', attributes })),
      meta: { startup_command: command('10', 'hi'), docker_images: images, raw_startup_command: 'x' },
    },
  };
}

function variableAnswer(variable: WireVariable, value: string, startupCommand: string) {
  return {
    status: 200,
    body: {
      object: 'egg_variable',
      attributes: { ...variable, server_value: value },
      meta: { startup_command: startupCommand, raw_startup_command: 'x' },
    },
  };
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useServerStore.getState().clear();
  useGlobalStore.setState({ user: null, flashes: [] });
});

function setup(permissions: string[], answers: { status: number; body?: unknown }[], dockerImage = JAVA_17) {
  const stub = stubFetch(answers);
  vi.stubGlobal('fetch', stub.fn);
  setTestServer(permissions, {
    description: null,
    docker_image: dockerImage,
    invocation: command('10', 'hi'),
  });
  const view = renderAt(<StartupPage />);
  return { stub, ...view };
}

const card = (env: string) => screen.getByTestId(`variable-${env}`);
const puts = (stub: ReturnType<typeof stubFetch>) => stub.calls.filter((c) => c.method === 'PUT');

describe('startup page', () => {
  it('shows the command, each variable with its env name and the images, titled Startup Settings', async () => {
    const { stub } = setup(['*'], [startupAnswer()]);
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    expect(await screen.findByTestId('startup-command')).toHaveTextContent(command('10', 'hi'));
    expect(stub.calls[0]).toMatchObject({ url: '/api/client/servers/abcd1234/startup', method: 'GET' });
    expect(document.title).toBe('Survival | Startup Settings');

    const players = within(card('MAX_PLAYERS'));
    expect(players.getByText('Maximum players')).toBeInTheDocument();
    expect(players.getByText('How many players may be connected at once.')).toBeInTheDocument();
    expect(players.getByText('MAX_PLAYERS')).toBeInTheDocument();
    expect(screen.getByLabelText('Maximum players')).toHaveValue('10');
    expect(screen.getByLabelText('Message of the day')).toHaveValue('hi');
    // The owner may edit, but the egg keeps WORLD_NAME read-only.
    expect(players.queryByText('Read Only')).toBeNull();
    expect(within(card('WORLD_NAME')).getByText('Read Only')).toBeInTheDocument();
    expect(screen.getByLabelText('World name')).toHaveAttribute('readonly');

    const image = screen.getByLabelText('Image');
    expect(
      within(image)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Java 17', 'Java 21']);
  });

  it('without startup.update every field is read-only with the badge, and typing sends nothing', async () => {
    const { stub } = setup(['startup.read'], [startupAnswer()]);
    const motd = await screen.findByLabelText('Message of the day');
    expect(screen.getAllByText('Read Only')).toHaveLength(3);
    expect(motd).toHaveAttribute('readonly');
    // Fake timers past the save delay instead of a pause: nothing may be sent, however slow the machine.
    vi.useFakeTimers();
    fireEvent.change(motd, { target: { value: 'changed' } });
    fireEvent.change(screen.getByLabelText('World name'), { target: { value: 'other' } });
    await act(() => vi.advanceTimersByTimeAsync(VARIABLE_SAVE_DELAY_MS * 2));
    expect(motd).toHaveValue('hi');
    expect(stub.calls).toHaveLength(1);
    expect(screen.getAllByText('You do not have permission to change startup variables.')).toHaveLength(3);
  });

  it('never sends a non-editable variable, even with startup.update', async () => {
    const { stub } = setup(['startup.read', 'startup.update'], [startupAnswer()]);
    const world = await screen.findByLabelText('World name');
    vi.useFakeTimers();
    fireEvent.change(world, { target: { value: 'other' } });
    await act(() => vi.advanceTimersByTimeAsync(VARIABLE_SAVE_DELAY_MS * 2));
    expect(world).toHaveValue('world');
    expect(puts(stub)).toHaveLength(0);
    expect(
      within(card('WORLD_NAME')).getByText('This value cannot be changed on this server.'),
    ).toBeInTheDocument();
  });

  it('sends one PUT 500 ms after the last keystroke, then shows the command from the answer', async () => {
    const { stub } = setup(
      ['startup.read', 'startup.update'],
      [startupAnswer(), variableAnswer(MOTD, 'Hello there', command('10', 'Hello there'))],
    );
    const motd = await screen.findByLabelText('Message of the day');
    vi.useFakeTimers();
    for (const value of ['H', 'He', 'Hello', 'Hello there']) {
      fireEvent.change(motd, { target: { value } });
      act(() => void vi.advanceTimersByTime(300));
    }
    expect(puts(stub)).toHaveLength(0);
    expect(within(card('MOTD')).getByText('Saving…')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(199));
    expect(puts(stub)).toHaveLength(0);
    act(() => void vi.advanceTimersByTime(1));
    expect(puts(stub)).toEqual([
      expect.objectContaining({
        url: '/api/client/servers/abcd1234/startup/variable',
        body: { key: 'MOTD', value: 'Hello there' },
      }),
    ]);
    vi.useRealTimers();
    await waitFor(() =>
      expect(screen.getByTestId('startup-command')).toHaveTextContent(command('10', 'Hello there')),
    );
    expect(within(card('MOTD')).getByText(/Saved/)).toBeInTheDocument();
    expect(useServerStore.getState().server?.invocation).toBe(command('10', 'Hello there'));
    expect(puts(stub)).toHaveLength(1);
  });

  it("shows a 422's message under that variable only, and keeps the command and the other fields", async () => {
    const { stub } = setup(
      ['*'],
      [
        startupAnswer(),
        {
          status: 422,
          body: {
            errors: [
              {
                code: 'ValidationException',
                status: '422',
                detail: 'The value must be an integer.',
                meta: { source_field: 'value', rule: 'integer' },
              },
            ],
          },
        },
      ],
    );
    const players = await screen.findByLabelText('Maximum players');
    fireEvent.change(players, { target: { value: 'abc' } });
    expect(await within(card('MAX_PLAYERS')).findByText('The value must be an integer.')).toBeInTheDocument();
    expect(puts(stub)[0]?.body).toEqual({ key: 'MAX_PLAYERS', value: 'abc' });
    expect(players).toHaveAttribute('aria-invalid', 'true');
    expect(players).toHaveValue('abc');
    expect(within(card('MAX_PLAYERS')).getByText('Not saved')).toBeInTheDocument();
    expect(within(card('MOTD')).queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Message of the day')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('startup-command')).toHaveTextContent(command('10', 'hi'));
    expect(useGlobalStore.getState().flashes).toEqual([
      expect.objectContaining({ key: 'server:startup:MAX_PLAYERS', type: 'error' }),
    ]);
  });

  it('uses a select for in: rules and an on/off switch for boolean rules', async () => {
    const mode: WireVariable = {
      ...MOTD,
      name: 'Game mode',
      env_variable: 'MODE',
      server_value: 'creative',
      rules: 'required|string|in:survival,creative,adventure',
    };
    const pvp: WireVariable = {
      ...MOTD,
      name: 'PvP',
      env_variable: 'PVP',
      server_value: '0',
      rules: 'required|boolean',
    };
    const { stub } = setup(
      ['*'],
      [
        startupAnswer([mode, pvp]),
        variableAnswer(pvp, '1', 'cmd pvp'),
        variableAnswer(mode, 'survival', 'cmd'),
      ],
    );
    const toggle = await screen.findByRole('switch', { name: 'PvP' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await waitFor(() => expect(puts(stub)).toHaveLength(1));
    expect(puts(stub)[0]?.body).toEqual({ key: 'PVP', value: '1' });

    const select = screen.getByLabelText('Game mode');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['survival', 'creative', 'adventure']);
    expect(select).toHaveValue('creative');
    fireEvent.change(select, { target: { value: 'survival' } });
    await waitFor(() => expect(puts(stub)).toHaveLength(2));
    expect(puts(stub)[1]?.body).toEqual({ key: 'MODE', value: 'survival' });
  });

  it('changes the image through settings/docker-image and keeps it for the server', async () => {
    const { stub } = setup(['*'], [startupAnswer(), { status: 204 }]);
    const image = await screen.findByLabelText('Image');
    expect(image).toBeEnabled();
    fireEvent.change(image, { target: { value: JAVA_21 } });
    expect(
      await screen.findByText('The image has been changed. Restart the server to run on it.'),
    ).toBeInTheDocument();
    expect(puts(stub)).toEqual([
      expect.objectContaining({
        url: '/api/client/servers/abcd1234/settings/docker-image',
        body: { docker_image: JAVA_21 },
      }),
    ]);
    expect(useServerStore.getState().server?.dockerImage).toBe(JAVA_21);
    expect(image).toHaveValue(JAVA_21);
  });

  it("shows an image refusal in the image's flash area and falls back to the stored image", async () => {
    setup(
      ['*'],
      [startupAnswer(), { status: 403, body: { errors: [{ detail: 'This action is unauthorized.' }] } }],
    );
    const image = await screen.findByLabelText('Image');
    fireEvent.change(image, { target: { value: JAVA_21 } });
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
    expect(useGlobalStore.getState().flashes).toEqual([expect.objectContaining({ key: 'startup:image' })]);
    expect(image).toHaveValue(JAVA_17);
    expect(useServerStore.getState().server?.dockerImage).toBe(JAVA_17);
  });

  it('disables the image select with a single image offered', async () => {
    setup(
      ['*'],
      [startupAnswer(undefined, { 'Node.js (host)': 'talon/host-node:20' })],
      'talon/host-node:20',
    );
    const image = await screen.findByLabelText('Image');
    expect(image).toBeDisabled();
    expect(image).toHaveDisplayValue('Node.js (host)');
    expect(
      screen.getByText("This server's template offers a single image, so there is nothing to choose."),
    ).toBeInTheDocument();
  });

  it('disables the image select when an administrator set an image the egg does not offer', async () => {
    setup(['*'], [startupAnswer()], 'custom/by-admin:1');
    const image = await screen.findByLabelText('Image');
    expect(image).toBeDisabled();
    expect(image).toHaveDisplayValue('custom/by-admin:1');
    expect(
      screen.getByText("An administrator has set this server's image by hand, so it cannot be changed here."),
    ).toBeInTheDocument();
  });

  it('disables the image select without startup.docker-image', async () => {
    setup(['startup.read', 'startup.update'], [startupAnswer()]);
    expect(await screen.findByLabelText('Image')).toBeDisabled();
    expect(screen.getByText("You do not have permission to change this server's image.")).toBeInTheDocument();
  });

  it('shows a load error with a retry that loads the page', async () => {
    const { stub } = setup(
      ['*'],
      [{ status: 500, body: { errors: [{ detail: 'The daemon is away.' }] } }, startupAnswer()],
    );
    expect(await screen.findByText('The daemon is away.')).toBeInTheDocument();
    expect(screen.getByText('The startup settings could not be loaded')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('startup-command')).toHaveTextContent(command('10', 'hi'));
    expect(stub.calls).toHaveLength(2);
  });
});

describe('startup rules', () => {
  it('reads the input kind from the rules', () => {
    expect(variableInputKind(['required', 'in:a,b,c'])).toEqual({ kind: 'select', options: ['a', 'b', 'c'] });
    expect(variableInputKind(['nullable', 'boolean'])).toEqual({ kind: 'boolean' });
    expect(variableInputKind(['required', 'integer', 'between:1,500'])).toEqual({
      kind: 'text',
      numeric: true,
    });
    expect(variableInputKind(['required', 'string'])).toEqual({ kind: 'text', numeric: false });
  });

  it('allows an image change only with several images, the current one offered, and the permission', () => {
    expect(dockerImageRules(TWO_IMAGES, JAVA_17, true)).toMatchObject({ selectable: true, lock: null });
    expect(dockerImageRules({ Java: JAVA_17 }, JAVA_17, true)).toMatchObject({
      selectable: false,
      lock: 'single',
    });
    expect(dockerImageRules(TWO_IMAGES, 'other:1', true)).toMatchObject({
      selectable: false,
      offered: false,
      lock: 'manual',
    });
    expect(dockerImageRules(TWO_IMAGES, JAVA_17, false)).toMatchObject({
      selectable: false,
      lock: 'no_permission',
    });
  });
});
