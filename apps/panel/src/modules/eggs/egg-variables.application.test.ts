import { adminEggVariableSchema } from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type Res, TestClient } from '../../test-support/client.ts';
import { activityAbout, applicationClient, importPaperEgg } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// Egg variables through the application API (extension, docs/api.md "Nests and eggs").

let panel: TestPanel;
let api: TestClient;
let nestId: number;

const patch = (c: TestClient, path: string, body: unknown) => c.request('PATCH', path, body);
const errorsOf = (res: Res) =>
  (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}|${e.detail}`,
  );
const variablesUrl = (eggId: number) => `/api/application/nests/${nestId}/eggs/${eggId}/variables`;
const rowsOf = (eggId: number) => panel.ctx.repositories.eggs.variables(eggId);

let seq = 0;
const egg = () => importPaperEgg(panel.ctx, nestId, `Paper ${(seq += 1)}`);

const GOOD = {
  name: 'Max players',
  description: 'How many can join',
  env_variable: 'MAX_PLAYERS',
  default_value: '20',
  user_viewable: true,
  user_editable: true,
  rules: 'required|integer|between:1,100',
};

beforeAll(async () => {
  panel = await startTestPanel();
  api = await applicationClient(panel);
  nestId = (await panel.ctx.services.eggs.ensureNest('Variables', 'test')).id;
});
afterAll(async () => {
  await panel.close();
});

describe('GET and POST …/eggs/{egg}/variables', () => {
  it('lists the variables and creates one (201), with the rules in canonical form', async () => {
    const id = await egg();
    const listed = await api.get(variablesUrl(id));
    expect(listed.status).toBe(200);
    expect(listed.body.object).toBe('list');
    expect(
      listed.body.data.map((v: { attributes: { env_variable: string } }) => v.attributes.env_variable),
    ).toEqual(['MINECRAFT_VERSION', 'SERVER_JARFILE', 'DL_PATH', 'BUILD_NUMBER']);
    const res = await api.post(variablesUrl(id), { ...GOOD, rules: 'Required| int |between:1,100|' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.object).toBe('egg_variable');
    expect(adminEggVariableSchema.strict().parse(res.body.attributes).egg_id).toBe(id);
    expect(res.body.attributes).toMatchObject({
      egg_id: id,
      name: 'Max players',
      env_variable: 'MAX_PLAYERS',
      default_value: '20',
      user_viewable: true,
      user_editable: true,
      rules: 'required|integer|between:1,100',
    });
    expect(res.body.meta.resource).toBe(`${panel.url}${variablesUrl(id)}/${res.body.attributes.id}`);
    expect(await rowsOf(id)).toHaveLength(5);
    const events = await activityAbout(panel.ctx, { type: 'egg', id });
    expect(events.map((e) => [e.event, e.properties])).toEqual([
      ['egg:variable.create', { env_variable: 'MAX_PLAYERS' }],
    ]);
  });

  it('fills in the optional fields', async () => {
    const id = await egg();
    const res = await api.post(variablesUrl(id), { name: 'Motd', env_variable: 'MOTD' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.attributes).toMatchObject({
      description: '',
      default_value: '',
      user_viewable: false,
      user_editable: false,
      rules: 'nullable|string',
    });
  });

  it('refuses each bad field with a 422 on that field and stores nothing', async () => {
    const id = await egg();
    const before = await rowsOf(id);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ name: undefined }, ['name|required|The name field is required.']],
      [{ name: 'x'.repeat(192) }, ['name|egg|name: must be at most 191 characters']],
      [{ env_variable: undefined }, ['env_variable|required|The Environment Variable field is required.']],
      [
        { env_variable: 'MAX-PLAYERS' },
        ['env_variable|egg|env_variable: must be letters, digits and underscores'],
      ],
      [
        { env_variable: 'server_memory' },
        ['env_variable|egg|env_variable: "server_memory" is reserved: the daemon sets it for every server'],
      ],
      [
        { env_variable: 'server_jarfile' },
        ['env_variable|unique|The Environment Variable has already been taken.'],
      ],
      [{ rules: 'required|intger' }, ['rules|egg|rules: "intger" is not a known validation rule']],
      [{ rules: 'between:1' }, ['rules|egg|rules: "between:1" must be written as between:<min>,<max>']],
      [{ rules: 'regex:/(/' }, ['rules|egg|rules: the pattern of "regex" is not a valid regular expression']],
      [{ rules: 5 }, ['rules|egg|rules: must be a string of rules joined by "|", or a list of rules']],
      [{ user_viewable: 'maybe' }, ['user_viewable|boolean|The user viewable field must be true or false.']],
      [{ description: [] }, ['description|string|The description must be a string.']],
    ];
    for (const [change, expected] of cases) {
      const res = await api.post(variablesUrl(id), { ...GOOD, ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
      const found = errorsOf(res);
      expect(found.length, JSON.stringify(found)).toBe(expected.length);
      found.forEach((f, i) =>
        expect(f.startsWith(expected[i] ?? '?'), `${f} for ${JSON.stringify(change)}`).toBe(true),
      );
    }
    expect(await rowsOf(id)).toEqual(before);
  });
});

describe('PATCH and DELETE …/variables/{variable}', () => {
  it('changes the fields given and keeps the row (and so the servers’ values)', async () => {
    const id = await egg();
    const [first] = await rowsOf(id);
    const res = await patch(api, `${variablesUrl(id)}/${first!.id}`, {
      env_variable: 'MC_VERSION',
      rules: ['required', 'string', 'max:20'],
      user_editable: false,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes).toMatchObject({
      id: first!.id,
      name: first!.name,
      env_variable: 'MC_VERSION',
      rules: 'required|string|max:20',
      user_editable: false,
      default_value: first!.default_value,
    });
    // Renaming to its own name in another case is not a clash with itself.
    expect(
      (await patch(api, `${variablesUrl(id)}/${first!.id}`, { env_variable: 'mc_version' })).status,
    ).toBe(200);
  });

  it('refuses a bad rule string or a taken name (422) and changes nothing', async () => {
    const id = await egg();
    const [first] = await rowsOf(id);
    const before = await rowsOf(id);
    const bad = await patch(api, `${variablesUrl(id)}/${first!.id}`, { rules: 'required|nope' });
    expect(errorsOf(bad)).toEqual(['rules|egg|rules: "nope" is not a known validation rule']);
    const taken = await patch(api, `${variablesUrl(id)}/${first!.id}`, { env_variable: 'DL_PATH' });
    expect(errorsOf(taken)).toEqual(['env_variable|unique|The Environment Variable has already been taken.']);
    expect(await rowsOf(id)).toEqual(before);
  });

  it('deletes a variable (204); a variable of another egg is 404', async () => {
    const id = await egg();
    const other = await egg();
    const [first] = await rowsOf(id);
    expect((await api.delete(`${variablesUrl(other)}/${first!.id}`)).status).toBe(404);
    expect((await patch(api, `${variablesUrl(other)}/${first!.id}`, { name: 'x' })).status).toBe(404);
    expect((await api.delete(`${variablesUrl(id)}/${first!.id}`)).status).toBe(204);
    expect((await rowsOf(id)).map((v) => v.id)).not.toContain(first!.id);
    expect((await api.delete(`${variablesUrl(id)}/${first!.id}`)).status).toBe(404);
  });
});

describe('access to egg variables', () => {
  it('needs credentials (401)', async () => {
    const id = await egg();
    expectError(
      await new TestClient(panel.url).get(variablesUrl(id)),
      401,
      'AuthenticationException',
      'Unauthenticated.',
    );
  });

  it('refuses non-admin sessions, keys without r_eggs and read-only keys on writes (403)', async () => {
    const id = await egg();
    const [first] = await rowsOf(id);
    const before = await rowsOf(id);
    const session = await panel.signedIn(await panel.createUser());
    expectError(
      await session.post(variablesUrl(id), GOOD),
      403,
      'AccessDeniedHttpException',
      'This account does not have permission to access the API.',
    );
    const none = await applicationClient(panel, { r_nests: 3 });
    expectError(
      await none.get(variablesUrl(id)),
      403,
      'AccessDeniedHttpException',
      'This action is unauthorized.',
    );
    const reader = await applicationClient(panel, { r_eggs: 1 });
    expect((await reader.get(variablesUrl(id))).status).toBe(200);
    for (const client of [none, reader])
      for (const res of [
        await client.post(variablesUrl(id), GOOD),
        await patch(client, `${variablesUrl(id)}/${first!.id}`, { name: 'x' }),
        await client.delete(`${variablesUrl(id)}/${first!.id}`),
      ])
        expectError(res, 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
    expect(await rowsOf(id)).toEqual(before);
  });
});
