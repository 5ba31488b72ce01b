import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditorView } from '@codemirror/view';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { signInForTest, wireList } from '../testing.ts';
import { NEST_ROUTES, validation, wireEgg, wireNest, wireVariable } from './testing.ts';

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
beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const eggAt = (path: string) => renderAt(<p>elsewhere</p>, { path, routes: NEST_ROUTES });
const eggAnswer = (servers = 0) => ({
  status: 200,
  body: { object: 'egg', attributes: wireEgg(7, 3, 'Paper', servers) },
});

/** The CodeMirror view named `label`, once its chunk has loaded. */
async function editorNamed(label: string): Promise<EditorView> {
  const content = await screen.findByRole('textbox', { name: label });
  return EditorView.findFromDOM(content.closest<HTMLElement>('.cm-editor')!)!;
}

function replaceText(view: EditorView, text: string) {
  act(() =>
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: 'input.type' }),
  );
}

describe('admin egg configuration', () => {
  it('shows the egg and saves every field of the configuration tab', async () => {
    const fetch = stubFetch([
      eggAnswer(),
      { status: 200, body: { object: 'egg', attributes: wireEgg(7, 3, 'Paper 2') } },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    eggAt('/admin/nests/egg/7?nest=3');
    expect(await screen.findByRole('heading', { name: 'Paper' })).toBeInTheDocument();
    expect(fetch.calls[0]!.url).toBe('/api/application/nests/3/eggs/7?include=servers');
    expect(screen.getByRole('link', { name: 'Configuration' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Variables' })).toHaveAttribute(
      'href',
      '/admin/nests/egg/7/variables?nest=3',
    );
    expect(screen.getByRole('link', { name: 'Export Paper' })).toHaveAttribute(
      'href',
      '/api/application/nests/3/eggs/7/export',
    );

    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.type(screen.getByLabelText('Name'), 'Paper 2');
    await userEvent.click(screen.getByRole('button', { name: 'Remove image 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add image' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Image label 2' }), 'Java 25');
    await userEvent.type(
      screen.getByRole('textbox', { name: 'Image 2' }),
      'ghcr.io/pterodactyl/yolks:java_25',
    );
    await userEvent.clear(screen.getByLabelText('Stop command'));
    await userEvent.type(screen.getByLabelText('Stop command'), '^C');
    await userEvent.type(screen.getByLabelText('File denylist'), '\nconfig/secret.yml');
    replaceText(await editorNamed('Startup detection (JSON)'), '{"done": "Server started"}');
    await editorNamed('Configuration files (JSON)');
    await editorNamed('Logs (JSON)');
    await userEvent.click(screen.getByRole('button', { name: 'Save configuration' }));

    expect(await screen.findByText('The egg is saved.')).toBeInTheDocument();
    expect(fetch.calls[1]).toMatchObject({
      method: 'PATCH',
      url: '/api/application/nests/3/eggs/7',
      body: {
        name: 'Paper 2',
        description: 'Runs Paper',
        docker_images: {
          'Java 21': 'ghcr.io/pterodactyl/yolks:java_21',
          'Java 25': 'ghcr.io/pterodactyl/yolks:java_25',
        },
        startup: 'java -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}}',
        config: {
          files: {
            'server.properties': {
              parser: 'properties',
              find: { 'server-port': '{{server.build.default.port}}' },
            },
          },
          startup: { done: 'Server started' },
          logs: {},
          stop: '^C',
          file_denylist: ['*.jar', 'config/secret.yml'],
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Paper 2' })).toBeInTheDocument();
  });

  it('checks the form first: a name, an image, JSON objects — nothing is sent', async () => {
    const fetch = stubFetch([eggAnswer()]);
    vi.stubGlobal('fetch', fetch.fn);
    eggAt('/admin/nests/egg/7?nest=3');
    await screen.findByRole('heading', { name: 'Paper' });
    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.clear(screen.getByRole('textbox', { name: 'Image 1' }));
    replaceText(await editorNamed('Configuration files (JSON)'), '{"server.properties": ');
    replaceText(await editorNamed('Logs (JSON)'), '[]');
    await userEvent.click(screen.getByRole('button', { name: 'Save configuration' }));

    expect(await screen.findByText('Give the egg a name.')).toBeInTheDocument();
    expect(screen.getByText('Every row needs an image name (or remove the row).')).toBeInTheDocument();
    expect(screen.getByText(/^This is not valid JSON/)).toBeInTheDocument();
    expect(screen.getByText('This must be a JSON object ({ … }).')).toBeInTheDocument();
    expect(fetch.calls).toHaveLength(1);
  });

  it('puts the importer’s 422 under the field holding the path', async () => {
    const fetch = stubFetch([
      eggAnswer(),
      validation(
        [
          'config.files["server.properties"].parser',
          'config.files["server.properties"].parser: "toml" is not a supported parser',
        ],
        ['startup', 'startup: must not be empty'],
        ['uuid', 'uuid: something else'],
      ),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    eggAt('/admin/nests/egg/7?nest=3');
    await screen.findByRole('heading', { name: 'Paper' });
    await editorNamed('Configuration files (JSON)');
    await userEvent.click(screen.getByRole('button', { name: 'Save configuration' }));
    const files = screen.getByRole('group', { name: 'Configuration files (JSON)' });
    expect(
      await within(files).findByText(
        'config.files["server.properties"].parser: "toml" is not a supported parser',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Startup: must not be empty')).toBeInTheDocument();
    expect(screen.getByText('uuid: something else')).toBeInTheDocument();
  });

  it('finds the egg’s nest when the address does not name it', async () => {
    const fetch = stubFetch([
      { status: 200, body: wireList('nest', [wireNest(1, 'Voice', [2]), wireNest(3, 'Minecraft', [7])]) },
      eggAnswer(),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    eggAt('/admin/nests/egg/7');
    expect(await screen.findByRole('heading', { name: 'Paper' })).toBeInTheDocument();
    expect(fetch.calls[1]!.url).toBe('/api/application/nests/3/eggs/7?include=servers');
  });

  it('says so when the egg does not exist', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([{ status: 200, body: wireList('nest', [wireNest(1, 'Voice', [2])]) }]).fn,
    );
    eggAt('/admin/nests/egg/99');
    expect(
      await screen.findByText('This item does not exist (it may have been deleted).', { exact: false }),
    ).toBeInTheDocument();
  });

  it('deletes the egg only when confirmed, and shows the API’s refusal', async () => {
    const fetch = stubFetch([
      eggAnswer(2),
      {
        status: 400,
        body: {
          errors: [
            {
              code: 'DisplayException',
              status: '400',
              detail: 'Cannot delete an egg that servers still use.',
            },
          ],
        },
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    eggAt('/admin/nests/egg/7?nest=3');
    await screen.findByRole('heading', { name: 'Paper' });
    await userEvent.click(screen.getByRole('button', { name: 'Delete egg' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the egg “Paper”?' });
    expect(fetch.calls).toHaveLength(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete egg' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Cannot delete an egg that servers still use.',
    );
    expect(fetch.calls[1]).toMatchObject({ method: 'DELETE', url: '/api/application/nests/3/eggs/7' });
  });

  it('deletes an unused egg and returns to its nest', async () => {
    const fetch = stubFetch([
      eggAnswer(),
      { status: 204 },
      { status: 200, body: { object: 'nest', attributes: wireNest(3, 'Minecraft', null) } },
      { status: 200, body: wireList('egg', []) },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    const { router } = eggAt('/admin/nests/egg/7?nest=3');
    await screen.findByRole('heading', { name: 'Paper' });
    await userEvent.click(screen.getByRole('button', { name: 'Delete egg' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete egg' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/nests/view/3'));
    // The nest's page (its loading view shows the flash too, then the loaded page does).
    await screen.findByRole('heading', { name: 'Minecraft' });
    expect(screen.getByText('The egg “Paper” was deleted.')).toBeInTheDocument();
  });
});

describe('admin egg install script', () => {
  it('edits the script in the code editor and saves it with its container and entrypoint', async () => {
    const fetch = stubFetch([
      eggAnswer(),
      { status: 200, body: { object: 'egg', attributes: wireEgg(7, 3, 'Paper') } },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    eggAt('/admin/nests/egg/7/script?nest=3');
    const view = await editorNamed('Install script');
    expect(view.state.doc.toString()).toBe('#!/bin/ash\necho installing\n');
    act(() =>
      view.dispatch({
        changes: { from: view.state.doc.length, insert: 'echo done\n' },
        userEvent: 'input.type',
      }),
    );
    await userEvent.clear(screen.getByLabelText('Entrypoint'));
    await userEvent.click(screen.getByRole('button', { name: 'Save install script' }));
    expect(
      await screen.findByText('Enter the program that runs the script (bash, ash…).'),
    ).toBeInTheDocument();
    expect(fetch.calls).toHaveLength(1);

    await userEvent.type(screen.getByLabelText('Entrypoint'), 'bash');
    await userEvent.click(screen.getByRole('button', { name: 'Save install script' }));
    expect(await screen.findByText('The install script is saved.')).toBeInTheDocument();
    expect(fetch.calls[1]).toMatchObject({
      method: 'PATCH',
      url: '/api/application/nests/3/eggs/7',
      body: {
        script: {
          install: '#!/bin/ash\necho installing\necho done\n',
          container: 'ghcr.io/pterodactyl/installers:alpine',
          entry: 'bash',
        },
      },
    });
  });
});

describe('admin egg variables', () => {
  const listAnswer = (...vars: ReturnType<typeof wireVariable>[]) => ({
    status: 200,
    body: wireList('egg_variable', vars),
  });

  it('lists the variables, or says there are none', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([eggAnswer(), listAnswer(wireVariable(1, 'Server jar file', 'SERVER_JARFILE'))]).fn,
    );
    eggAt('/admin/nests/egg/7/variables?nest=3');
    const row = (await screen.findByText('Server jar file')).closest('tr')!;
    expect(row).toHaveTextContent('SERVER_JARFILE');
    expect(row).toHaveTextContent('required|string|max:20');
    expect(row).toHaveTextContent('Can change');
  });

  it('says when the egg has no variables', async () => {
    vi.stubGlobal('fetch', stubFetch([eggAnswer(), listAnswer()]).fn);
    eggAt('/admin/nests/egg/7/variables?nest=3');
    expect(await screen.findByText('This egg has no variables.')).toBeInTheDocument();
  });

  it('adds a variable: checked first, then the API’s 422 on a bad rule beside the rules', async () => {
    const fetch = stubFetch([
      eggAnswer(),
      listAnswer(),
      validation(['rules', 'rules: "intger" is not a known validation rule']),
      {
        status: 201,
        body: {
          object: 'egg_variable',
          attributes: wireVariable(5, 'Max players', 'MAX_PLAYERS', 'required|integer'),
        },
      },
      listAnswer(wireVariable(5, 'Max players', 'MAX_PLAYERS', 'required|integer')),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    eggAt('/admin/nests/egg/7/variables?nest=3');
    await screen.findByText('This egg has no variables.');
    await userEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add variable' }));
    await userEvent.type(dialog.getByLabelText('Environment variable'), 'MAX-PLAYERS');
    await userEvent.click(dialog.getByRole('button', { name: 'Add variable' }));
    expect(await dialog.findByText('Give the variable a name.')).toBeInTheDocument();
    expect(dialog.getByText('Only letters, digits and underscores.')).toBeInTheDocument();
    expect(fetch.calls).toHaveLength(2);

    await userEvent.type(dialog.getByLabelText('Name'), 'Max players');
    await userEvent.clear(dialog.getByLabelText('Environment variable'));
    await userEvent.type(dialog.getByLabelText('Environment variable'), 'MAX_PLAYERS');
    await userEvent.clear(dialog.getByLabelText('Rules'));
    await userEvent.type(dialog.getByLabelText('Rules'), 'required|intger');
    await userEvent.click(dialog.getByRole('button', { name: 'Add variable' }));
    expect(await dialog.findByText('Rules: "intger" is not a known validation rule')).toBeInTheDocument();
    expect(dialog.getByLabelText('Rules')).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(dialog.getByLabelText('Rules'));
    await userEvent.type(dialog.getByLabelText('Rules'), 'required|integer');
    await userEvent.click(dialog.getByRole('button', { name: 'Add variable' }));
    expect(await screen.findByText('Max players')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetch.calls[3]).toMatchObject({
      method: 'POST',
      url: '/api/application/nests/3/eggs/7/variables',
      body: {
        name: 'Max players',
        env_variable: 'MAX_PLAYERS',
        description: '',
        default_value: '',
        user_viewable: true,
        user_editable: false,
        rules: 'required|integer',
      },
    });
  });

  it('edits a variable', async () => {
    const jar = wireVariable(1, 'Server jar file', 'SERVER_JARFILE');
    const fetch = stubFetch([
      eggAnswer(),
      listAnswer(jar),
      { status: 200, body: { object: 'egg_variable', attributes: { ...jar, default_value: 'paper.jar' } } },
      listAnswer({ ...jar, default_value: 'paper.jar' }),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    eggAt('/admin/nests/egg/7/variables?nest=3');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Server jar file' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit the variable “Server jar file”' }));
    expect(dialog.getByLabelText('Environment variable')).toHaveValue('SERVER_JARFILE');
    await userEvent.clear(dialog.getByLabelText('Default value'));
    await userEvent.type(dialog.getByLabelText('Default value'), 'paper.jar');
    await userEvent.click(dialog.getByLabelText('Users can change it'));
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetch.calls[2]).toMatchObject({
      method: 'PATCH',
      url: '/api/application/nests/3/eggs/7/variables/1',
      body: { default_value: 'paper.jar', user_editable: false, env_variable: 'SERVER_JARFILE' },
    });
  });

  it('deletes a variable only when confirmed', async () => {
    const fetch = stubFetch([
      eggAnswer(),
      listAnswer(wireVariable(1, 'Server jar file', 'SERVER_JARFILE')),
      { status: 204 },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    eggAt('/admin/nests/egg/7/variables?nest=3');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Server jar file' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the variable “Server jar file”?' });
    expect(dialog).toHaveTextContent('“Server jar file” (SERVER_JARFILE) will be removed from the egg');
    expect(fetch.calls).toHaveLength(2);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete variable' }));
    expect(await screen.findByText('This egg has no variables.')).toBeInTheDocument();
    expect(fetch.calls[2]).toMatchObject({
      method: 'DELETE',
      url: '/api/application/nests/3/eggs/7/variables/1',
    });
  });
});
