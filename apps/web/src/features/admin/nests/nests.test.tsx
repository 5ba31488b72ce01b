import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt, stubFetch } from '../../../test/render.tsx';
import { signInForTest, wireList } from '../testing.ts';
import { NestsListPage } from './NestsListPage.tsx';
import { NEST_ROUTES, validation, wireEgg, wireNest } from './testing.ts';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const viewAt = (path: string) => renderAt(<p>elsewhere</p>, { path, routes: NEST_ROUTES });

describe('admin nests list', () => {
  it('lists nests with how many eggs each has, asking for the eggs and the search', async () => {
    const fetch = stubFetch([
      {
        status: 200,
        body: wireList('nest', [wireNest(1, 'Minecraft', [1, 2, 3]), wireNest(2, 'Voice', [])]),
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<NestsListPage />, { path: '/admin/nests?search=mine' });
    const row = (await screen.findByRole('link', { name: 'Minecraft' })).closest('tr')!;
    expect(within(row).getAllByRole('cell')[2]).toHaveTextContent('3');
    expect(screen.getByRole('link', { name: 'Voice' })).toHaveAttribute('href', '/admin/nests/view/2');
    expect(fetch.calls[0]!.url).toBe('/api/application/nests?search=mine&include=eggs');
  });

  it('shows placeholder rows while loading, then says the list is empty', async () => {
    let answer: (r: Response) => void = () => undefined;
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    renderAt(<NestsListPage />, { path: '/admin/nests' });
    expect(await screen.findAllByTestId('skeleton-row')).toHaveLength(5);
    answer(new Response(JSON.stringify(wireList('nest', []))));
    expect(
      await screen.findByText('There are no nests yet. Create one, then import an egg into it.'),
    ).toBeInTheDocument();
  });

  it('says what went wrong in words when the list fails', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([
        { status: 500, body: { errors: [{ code: 'X', status: '500', detail: 'The database is down.' }] } },
      ]).fn,
    );
    renderAt(<NestsListPage />, { path: '/admin/nests' });
    expect(await screen.findByText('The database is down.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('creates a nest: a name is required, then it is sent and its page opens', async () => {
    const fetch = stubFetch([
      { status: 200, body: wireList('nest', []) },
      { status: 201, body: { object: 'nest', attributes: wireNest(9, 'Survival', null) } },
      { status: 200, body: wireList('nest', []) },
      { status: 200, body: { object: 'nest', attributes: wireNest(9, 'Survival', null) } },
      { status: 200, body: wireList('egg', []) },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    const { router } = renderAt(<p>elsewhere</p>, {
      path: '/admin/nests',
      routes: [{ path: '/admin/nests', Component: NestsListPage }, ...NEST_ROUTES],
    });
    await screen.findByText('There are no nests yet. Create one, then import an egg into it.');
    await userEvent.click(screen.getByRole('button', { name: 'Create nest' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a nest' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create nest' }));
    expect(await within(dialog).findByText('Give the nest a name.')).toBeInTheDocument();
    expect(fetch.calls).toHaveLength(1);

    await userEvent.type(within(dialog).getByLabelText('Name'), 'Survival');
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Hard mode');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create nest' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/nests/view/9'));
    expect(fetch.calls[1]).toMatchObject({
      method: 'POST',
      url: '/api/application/nests',
      body: { name: 'Survival', description: 'Hard mode' },
    });
  });

  it('shows the API’s 422 beside the name', async () => {
    const fetch = stubFetch([
      { status: 200, body: wireList('nest', []) },
      validation(['name', 'The name may not be greater than 191 characters.']),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    renderAt(<NestsListPage />, { path: '/admin/nests' });
    await screen.findByText('There are no nests yet. Create one, then import an egg into it.');
    await userEvent.click(screen.getByRole('button', { name: 'Create nest' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'x');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create nest' }));
    expect(
      await within(dialog).findByText('The name may not be greater than 191 characters.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('admin nest view', () => {
  const nestAnswers = (eggs = [wireEgg(7, 3, 'Paper', 2)]) => [
    { status: 200, body: { object: 'nest', attributes: wireNest(3, 'Minecraft', null) } },
    { status: 200, body: wireList('egg', eggs) },
  ];

  it('lists the eggs with the servers using each and an export download', async () => {
    const fetch = stubFetch(nestAnswers());
    vi.stubGlobal('fetch', fetch.fn);
    viewAt('/admin/nests/view/3');
    const link = await screen.findByRole('link', { name: 'Paper' });
    expect(link).toHaveAttribute('href', '/admin/nests/egg/7?nest=3');
    const row = link.closest('tr')!;
    expect(within(row).getAllByRole('cell')[2]).toHaveTextContent('2');
    const exportLink = within(row).getByRole('link', { name: 'Export Paper' });
    expect(exportLink).toHaveAttribute('href', '/api/application/nests/3/eggs/7/export');
    expect(exportLink).toHaveAttribute('download');
    expect(fetch.calls[1]!.url).toBe('/api/application/nests/3/eggs?include=servers');
  });

  it('deletes the nest only when confirmed, and shows the API’s refusal', async () => {
    const fetch = stubFetch([
      ...nestAnswers(),
      {
        status: 400,
        body: {
          errors: [
            { code: 'DisplayException', status: '400', detail: 'Cannot delete a nest that still has eggs.' },
          ],
        },
      },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    viewAt('/admin/nests/view/3');
    await screen.findByRole('link', { name: 'Paper' });
    await userEvent.click(screen.getByRole('button', { name: 'Delete nest' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the nest “Minecraft”?' });
    expect(fetch.calls).toHaveLength(2);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete nest' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Cannot delete a nest that still has eggs.',
    );
    expect(fetch.calls[2]).toMatchObject({ method: 'DELETE', url: '/api/application/nests/3' });
  });

  it('deletes an empty nest after confirmation and returns to the list', async () => {
    const fetch = stubFetch([
      ...nestAnswers([]),
      { status: 204 },
      { status: 200, body: wireList('nest', []) },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    const { router } = viewAt('/admin/nests/view/3');
    await screen.findByText('This nest has no eggs yet. Import one below.');
    await userEvent.click(screen.getByRole('button', { name: 'Delete nest' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete nest' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/nests'));
  });

  it('renames the nest', async () => {
    const fetch = stubFetch([
      ...nestAnswers(),
      { status: 200, body: { object: 'nest', attributes: { ...wireNest(3, 'Java', null) } } },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    viewAt('/admin/nests/view/3');
    const form = within(await screen.findByRole('region', { name: 'Edit nest' }));
    await userEvent.clear(form.getByLabelText('Name'));
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Give the nest a name.')).toBeInTheDocument();
    await userEvent.type(form.getByLabelText('Name'), 'Java');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Java' })).toBeInTheDocument();
    expect(fetch.calls[2]).toMatchObject({
      method: 'PATCH',
      url: '/api/application/nests/3',
      body: { name: 'Java', description: 'Minecraft servers' },
    });
  });

  it('imports an uploaded egg file and links to the egg, with the importer’s warnings', async () => {
    const fetch = stubFetch([
      ...nestAnswers([]),
      {
        status: 200,
        body: {
          object: 'egg',
          attributes: wireEgg(12, 3, 'Paper'),
          meta: {
            action: 'imported',
            matched: null,
            warnings: ['config.files["server.properties"]: unknown placeholder {{server.build.nonsense}}'],
          },
        },
      },
      { status: 200, body: { object: 'nest', attributes: wireNest(3, 'Minecraft', null) } },
      { status: 200, body: wireList('egg', [wireEgg(12, 3, 'Paper')]) },
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    viewAt('/admin/nests/view/3');
    await screen.findByText('This nest has no eggs yet. Import one below.');
    const text = '{"meta":{"version":"PTDL_v2"},"name":"Paper"}';
    await userEvent.upload(
      screen.getByLabelText('Egg file'),
      new File([text], 'egg-paper.json', { type: 'application/json' }),
    );
    expect(await screen.findByText('egg-paper.json is read into the box below.')).toBeInTheDocument();
    expect(screen.getByLabelText('Or paste the egg as text')).toHaveValue(text);
    await userEvent.click(screen.getByRole('button', { name: 'Import egg' }));

    const open = await screen.findByRole('link', { name: 'Open Paper' });
    expect(open).toHaveAttribute('href', '/admin/nests/egg/12?nest=3');
    expect(screen.getByText('Imported the egg “Paper”.')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Accepted with warnings' })).toHaveTextContent(
      'config.files["server.properties"]: unknown placeholder {{server.build.nonsense}}',
    );
    expect(fetch.calls[2]).toMatchObject({
      method: 'POST',
      url: '/api/application/nests/3/eggs/import',
      body: { egg: text },
    });
  });

  it('shows every problem of a refused file with its place in the file', async () => {
    const fetch = stubFetch([
      ...nestAnswers([]),
      validation(
        ['variables[2].rules', 'variables[2].rules: "intger" is not a known validation rule'],
        ['docker_images', 'docker_images: must have at least one image'],
        ['', 'The file is not JSON or YAML: unexpected end at line 3, column 1'],
      ),
    ]);
    vi.stubGlobal('fetch', fetch.fn);
    viewAt('/admin/nests/view/3');
    await screen.findByText('This nest has no eggs yet. Import one below.');
    await userEvent.click(screen.getByRole('button', { name: 'Import egg' }));
    expect(await screen.findByText('Choose an egg file or paste its text first.')).toBeInTheDocument();
    expect(fetch.calls).toHaveLength(2);

    await userEvent.type(screen.getByLabelText('Or paste the egg as text'), 'name: broken');
    await userEvent.click(screen.getByRole('button', { name: 'Import egg' }));
    const list = await screen.findByRole('list', { name: 'Problems in the file' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('variables[2].rules "intger" is not a known validation rule');
    expect(within(items[0]!).getByText('variables[2].rules').tagName).toBe('CODE');
    expect(items[1]).toHaveTextContent('docker_images must have at least one image');
    expect(items[2]).toHaveTextContent(
      'the file The file is not JSON or YAML: unexpected end at line 3, column 1',
    );
    expect(
      screen.getByText('The file was refused: 3 problems. Each is shown with its place in the file.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Open / })).toBeNull();
    expect(fetch.calls[2]!.body).toEqual({ egg: 'name: broken' });
  });
});
