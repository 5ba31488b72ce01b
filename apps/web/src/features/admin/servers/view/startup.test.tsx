import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signInForTest, wireList } from '../../testing.ts';
import { SERVER_PATH, fakeApi, renderServerView, wireEgg, wireServer, wireVariable } from './testing.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const JAR = wireVariable('SERVER_JARFILE', 'Server jar', 'required|string|max:20');
const VERSION = wireVariable('MC_VERSION', 'Version', 'required|string', {
  default_value: 'latest',
  user_editable: false,
});

/** The server runs egg 5 (Paper); egg 6 (Vanilla) has a different variable. */
function api(extra: Record<string, unknown> = {}) {
  const server = wireServer();
  const withVariables = {
    ...server,
    attributes: {
      ...server.attributes,
      relationships: {
        ...server.attributes.relationships,
        variables: wireList('server_variable', [
          { ...JAR, server_value: 'paper.jar' },
          { ...VERSION, server_value: null },
        ]),
      },
    },
  };
  return fakeApi({
    [`GET ${SERVER_PATH}`]: { status: 200, body: withVariables },
    'GET /api/application/nests': {
      status: 200,
      body: wireList('nest', [
        {
          id: 1,
          uuid: 'n1',
          author: 'a@example.com',
          name: 'Minecraft',
          description: null,
          created_at: '',
          updated_at: '',
        },
      ]),
    },
    'GET /api/application/nests/1/eggs': {
      status: 200,
      body: wireList('egg', [wireEgg(5, 'Paper').attributes, wireEgg(6, 'Vanilla').attributes]),
    },
    'GET /api/application/nests/1/eggs/5': { status: 200, body: wireEgg(5, 'Paper', [JAR, VERSION]) },
    'GET /api/application/nests/1/eggs/6': {
      status: 200,
      body: wireEgg(6, 'Vanilla', [
        wireVariable('VANILLA_VERSION', 'Vanilla version', 'required|string', { default_value: '1.21' }),
      ]),
    },
    ...extra,
  });
}

describe('admin server view: Startup', () => {
  it('shows the variables with their rules and sends the full environment', async () => {
    const calls = api({ [`PATCH ${SERVER_PATH}/startup`]: { status: 200, body: wireServer() } });
    renderServerView('startup');
    const jar = await screen.findByLabelText('Server jar');
    expect(jar).toHaveValue('paper.jar');
    expect(screen.getByLabelText('Version')).toHaveValue('latest');
    expect(screen.getByText(/Rules: required\|string\|max:20/)).toBeInTheDocument();
    expect(screen.getByText(/The owner can see this but not change it\./)).toBeInTheDocument();
    expect(screen.getByLabelText('Startup command')).toHaveValue(
      'java -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}}',
    );
    // The egg's images load: the server's image is one of them.
    expect(
      await screen.findByRole('option', { name: 'Java 21 (ghcr.io/talon/java:21)' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Docker image')).toHaveValue('ghcr.io/talon/java:21');

    await userEvent.clear(jar);
    await userEvent.type(jar, 'purpur.jar');
    await userEvent.click(screen.getByRole('button', { name: 'Save startup' }));
    expect(await screen.findByText(/The startup settings were saved/)).toBeInTheDocument();
    expect(calls.made('PATCH', `${SERVER_PATH}/startup`)[0]!.body).toEqual({
      startup: 'java -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}}',
      environment: { SERVER_JARFILE: 'purpur.jar', MC_VERSION: 'latest' },
      egg: 5,
      image: 'ghcr.io/talon/java:21',
      skip_scripts: false,
    });
  });

  it('checks each variable with its own rules before sending', async () => {
    const calls = api();
    renderServerView('startup');
    const jar = await screen.findByLabelText('Server jar');
    await userEvent.clear(jar);
    await userEvent.click(screen.getByRole('button', { name: 'Save startup' }));
    expect(await screen.findByText('The Server jar variable field is required.')).toBeInTheDocument();
    await userEvent.type(jar, 'a-very-long-jar-file-name.jar');
    await userEvent.click(screen.getByRole('button', { name: 'Save startup' }));
    expect(
      await screen.findByText('The Server jar variable may not be greater than 20 characters.'),
    ).toBeInTheDocument();
    expect(calls.made('PATCH', `${SERVER_PATH}/startup`)).toHaveLength(0);
  });

  it('switching the egg loads its variables, command and images', async () => {
    const calls = api({ [`PATCH ${SERVER_PATH}/startup`]: { status: 200, body: wireServer() } });
    renderServerView('startup');
    await screen.findByLabelText('Server jar');
    await userEvent.selectOptions(await screen.findByLabelText('Egg'), 'Vanilla');
    const version = await screen.findByLabelText('Vanilla version');
    await waitFor(() => expect(version).toHaveValue('1.21'));
    expect(screen.queryByLabelText('Server jar')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Startup command')).toHaveValue('run-Vanilla');

    await userEvent.selectOptions(screen.getByLabelText('Docker image'), 'Custom image…');
    const custom = screen.getByLabelText('Custom Docker image');
    await userEvent.clear(custom);
    await userEvent.type(custom, 'bad image!');
    await userEvent.click(screen.getByRole('button', { name: 'Save startup' }));
    expect(
      await screen.findByText('The image may only contain letters, numbers and . / - : @ _ and spaces.'),
    ).toBeInTheDocument();
    await userEvent.clear(custom);
    await userEvent.type(custom, 'example.org/mc:1');
    await userEvent.click(screen.getByRole('button', { name: 'Save startup' }));
    expect(await screen.findByText(/The startup settings were saved/)).toBeInTheDocument();
    expect(calls.made('PATCH', `${SERVER_PATH}/startup`)[0]!.body).toEqual({
      startup: 'run-Vanilla',
      environment: { VANILLA_VERSION: '1.21' },
      egg: 6,
      image: 'example.org/mc:1',
      skip_scripts: false,
    });
  });
});
