import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, Res } from '../../test-support/client.ts';
import { applicationClient, gameServerEgg } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { nowIso } from '../../lib/time.ts';

// Issue 23 item 1: an egg variable named LD_PRELOAD (or another name the dynamic loader, the C
// library or a shell reads) once ran a library from the server's directory as root on the host.
// The panel refuses such names wherever a variable name enters: egg import, variable creation and
// update, and the `environment` of a new server. Nothing is stored on refusal.

let panel: TestPanel;
let api: TestClient;
let nestId: number;

const errorsOf = (res: Res) =>
  (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.detail}`,
  );

function eggFile(name: string, envVariable: string) {
  return {
    meta: { version: 'PTDL_v2' },
    name,
    author: 'egg@example.org',
    docker_images: { Main: 'example/game:1' },
    startup: './run',
    config: { files: '{}', startup: '{"done": "ready"}', logs: '{}', stop: 'stop' },
    scripts: { installation: { script: '', container: 'example/installer', entrypoint: 'bash' } },
    variables: [
      {
        name: 'Preload',
        description: '',
        env_variable: envVariable,
        default_value: '/home/container/x.so',
        user_viewable: true,
        user_editable: true,
        rules: 'nullable|string',
      },
    ],
  };
}

const eggsNamed = (name: string) =>
  panel.ctx.db.db.selectFrom('eggs').select('id').where('name', '=', name).execute();

beforeAll(async () => {
  panel = await startTestPanel();
  api = await applicationClient(panel);
  nestId = (await panel.ctx.services.eggs.ensureNest('Host environment', 'test')).id;
});
afterAll(async () => {
  await panel?.close();
});

describe('environment variable names a host program reads', () => {
  it('refuses an egg import with such a variable (422 naming it) and stores nothing', async () => {
    for (const name of [
      'LD_PRELOAD',
      'ld_audit',
      'BASH_ENV',
      'NODE_OPTIONS',
      'GCONV_PATH',
      'GLIBC_TUNABLES',
    ]) {
      const res = await api.post(
        `/api/application/nests/${nestId}/eggs/import`,
        eggFile(`Evil ${name}`, name),
      );
      expect(res.status, name).toBe(422);
      expect(errorsOf(res), name).toEqual([
        expect.stringMatching(
          new RegExp(
            `^variables\\[0\\]\\.env_variable\\|variables\\[0\\]\\.env_variable: "${name}" cannot be an environment variable name: `,
            'u',
          ),
        ),
      ]);
      expect(await eggsNamed(`Evil ${name}`)).toEqual([]);
    }
    // The same file with a harmless name imports.
    const ok = await api.post(
      `/api/application/nests/${nestId}/eggs/import`,
      eggFile('Fine', 'PRELOAD_PATH'),
    );
    expect(ok.status, ok.text).toBe(200);
  });

  it('refuses creating or renaming a variable to such a name, and keeps the rows as they were', async () => {
    const egg = (await eggsNamed('Fine'))[0]!;
    const url = `/api/application/nests/${nestId}/eggs/${egg.id}/variables`;
    const before = await panel.ctx.repositories.eggs.variables(egg.id);
    const created = await api.post(url, { name: 'Loader', env_variable: 'LD_LIBRARY_PATH' });
    expect(created.status).toBe(422);
    expect(errorsOf(created)).toEqual([
      'env_variable|env_variable: "LD_LIBRARY_PATH" cannot be an environment variable name: the dynamic loader reads it (it can load a library into every program)',
    ]);
    const renamed = await api.request('PATCH', `${url}/${before[0]!.id}`, { env_variable: 'PS4' });
    expect(renamed.status).toBe(422);
    expect(errorsOf(renamed)).toEqual([
      'env_variable|env_variable: "PS4" cannot be an environment variable name: a tracing shell runs the commands in it',
    ]);
    expect(await panel.ctx.repositories.eggs.variables(egg.id)).toEqual(before);
  });

  it('refuses a new server whose environment names one, or whose egg has one from before the rule', async () => {
    const owner = await panel.createUser();
    const egg = await gameServerEgg(panel.ctx);
    const body = (environment: Record<string, string>, eggId = egg.id) => ({
      name: 'Preloaded',
      user: owner.id,
      egg: eggId,
      docker_image: 'talon/host-node:20',
      startup: 'node server.js',
      environment,
      limits: { memory: 128, swap: 0, disk: 256, io: 500, cpu: 50 },
      feature_limits: { databases: null, allocations: 1, backups: 1 },
      allocation: { default: 1 },
    });
    const good = { MAX_PLAYERS: '8', MOTD: 'x', WORLD_NAME: 'w' };
    const res = await api.post(
      '/api/application/servers',
      body({ ...good, LD_PRELOAD: '/home/container/x.so' }),
    );
    expect(res.status).toBe(422);
    expect(errorsOf(res)).toEqual([
      'environment.LD_PRELOAD|"LD_PRELOAD" cannot be an environment variable name: the dynamic loader reads it (it can load a library into every program)',
    ]);

    // An egg stored before the rule existed (written straight to the database).
    const fine = (await eggsNamed('Fine'))[0]!;
    const at = nowIso();
    await panel.ctx.repositories.eggs.insertVariable({
      egg_id: fine.id,
      name: 'Old preload',
      description: '',
      env_variable: 'LD_PRELOAD',
      default_value: '',
      user_viewable: 1,
      user_editable: 1,
      rules: 'nullable|string',
      sort: null,
      created_at: at,
      updated_at: at,
    });
    const legacy = await api.post('/api/application/servers', body({}, fine.id));
    expect(legacy.status).toBe(422);
    expect(errorsOf(legacy)).toEqual([
      'environment.LD_PRELOAD|"LD_PRELOAD" cannot be an environment variable name: the dynamic loader reads it (it can load a library into every program)',
    ]);
    expect(await panel.ctx.db.db.selectFrom('servers').select('id').execute()).toEqual([]);
  });
});
