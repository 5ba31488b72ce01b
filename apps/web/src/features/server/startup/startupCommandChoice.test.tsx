import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useGlobalStore } from '../../../app/store.ts';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { setTestServer } from '../../../test/server.ts';
import { useServerStore } from '../store.ts';
import { StartupPage } from './StartupPage.tsx';

// The choice among an egg's named start-up commands (PLCN_v3 eggs; our extension, issue 17).
const COMMANDS = [
  { name: 'Default', command: 'node server.js' },
  { name: 'Verbose', command: 'node server.js --verbose' },
];

function startupAnswer(commands = COMMANDS, name: string | null = 'Default') {
  return {
    status: 200,
    body: {
      object: 'list',
      data: [],
      meta: {
        startup_command: 'node server.js',
        docker_images: { Node: 'talon/node:20' },
        raw_startup_command: 'node server.js',
        startup_commands: commands,
        startup_command_name: name,
      },
    },
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useServerStore.getState().clear();
  useGlobalStore.setState({ user: null, flashes: [] });
});

function setup(permissions: string[], answers: { status: number; body?: unknown }[]) {
  const stub = stubFetch(answers);
  vi.stubGlobal('fetch', stub.fn);
  setTestServer(permissions, {
    description: null,
    docker_image: 'talon/node:20',
    invocation: 'node server.js',
  });
  renderAt(<StartupPage />);
  return stub;
}

describe('start-up command choice', () => {
  it('offers the named commands and sends the chosen one, then shows the new command', async () => {
    const stub = setup(
      ['*'],
      [
        startupAnswer(),
        {
          status: 200,
          body: {
            object: 'startup_command',
            attributes: {
              startup_command: 'node server.js --verbose',
              raw_startup_command: 'node server.js --verbose',
              startup_commands: COMMANDS,
              startup_command_name: 'Verbose',
            },
          },
        },
      ],
    );
    const select = await screen.findByLabelText('Command');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Default', 'Verbose']);
    expect(select).toHaveValue('Default');
    fireEvent.change(select, { target: { value: 'Verbose' } });
    await waitFor(() =>
      expect(screen.getByTestId('startup-command')).toHaveTextContent('node server.js --verbose'),
    );
    expect(stub.calls[1]).toMatchObject({
      url: '/api/client/servers/abcd1234/startup/command',
      method: 'PUT',
      body: { name: 'Verbose' },
    });
    expect(screen.getByLabelText('Command')).toHaveValue('Verbose');
  });

  it('shows the refusal and keeps the stored choice', async () => {
    setup(
      ['*'],
      [
        startupAnswer(),
        {
          status: 422,
          body: {
            errors: [{ code: 'ValidationException', status: '422', detail: 'The selected name is invalid.' }],
          },
        },
      ],
    );
    const select = await screen.findByLabelText('Command');
    fireEvent.change(select, { target: { value: 'Verbose' } });
    expect(await screen.findByText('The selected name is invalid.')).toBeInTheDocument();
    expect(select).toHaveValue('Default');
  });

  it('is disabled with the reason without startup.update, or when set by hand', async () => {
    setup(['startup.read'], [startupAnswer()]);
    expect(await screen.findByLabelText('Command')).toBeDisabled();
    expect(
      screen.getByText("You do not have permission to change this server's startup command."),
    ).toBeInTheDocument();
    cleanup();
    setup(['*'], [startupAnswer(COMMANDS, null)]);
    const select = await screen.findByLabelText('Command');
    expect(select).toBeDisabled();
    expect(select).toHaveValue('');
    expect(
      screen.getByText(
        "An administrator has set this server's startup command by hand, so it cannot be changed here.",
      ),
    ).toBeInTheDocument();
  });

  it('is not shown for an egg with one command', async () => {
    setup(['*'], [startupAnswer([COMMANDS[0]!])]);
    await screen.findByTestId('startup-command');
    expect(screen.queryByLabelText('Command')).toBeNull();
  });
});
