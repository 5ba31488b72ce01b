// POST /api/application/egg-tests and GET /api/application/egg-tests/{run} (issue 25, extension,
// docs/api.md "Egg tests"): what the admin egg page's Test button calls. Root admins only (a key
// needs write access to servers: a test creates and deletes one); bad input is a 422 naming the
// field and creates nothing; a run is read while it goes on, to its verdict.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eggTestRunSchema } from '@talon/shared/admin/egg-test-wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, TestClient } from '../../test-support/client.ts';
import { startTestDaemon, type TestDaemon } from '../../test-support/daemon.ts';
import { waitUntil } from '../../test-support/daemon-servers.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { applicationClient, clientKeyClient, FULL, insertNode, READ } from '../application/testing.ts';

const URL_ = '/api/application/egg-tests';
const FIXTURES = path.resolve(
  import.meta.dirname,
  '../../../../../packages/shared/test-fixtures/eggs/egg-test',
);

let panel: TestPanel;
let daemon: TestDaemon;
let admin: User;
let adminClient: TestClient;
let egg: number;

async function serverCount(): Promise<number> {
  const row = await panel.ctx.db.db
    .selectFrom('servers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Asserts a 422 whose first failure is on `field` with `detail`. */
function expectInvalid(res: Awaited<ReturnType<TestClient['post']>>, field: string, detail: string) {
  expect(res.status, res.text).toBe(422);
  const first = (res.body as { errors: { code: string; detail: string; meta: { source_field: string } }[] })
    .errors[0]!;
  expect(first.code).toBe('ValidationException');
  expect(first.meta.source_field).toBe(field);
  expect(first.detail).toBe(detail);
}

beforeAll(async () => {
  panel = await startTestPanel();
  daemon = await startTestDaemon(panel.ctx, 2);
  admin = await panel.createUser({ admin: true });
  adminClient = await panel.signedIn(admin);
  const nest = await panel.ctx.services.eggs.ensureNest('Egg tests', 'Fixtures of the egg test runner.');
  const text = readFileSync(path.join(FIXTURES, 'egg-test-passes.json'), 'utf8');
  egg = (await panel.ctx.services.eggs.importFile(text, nest.id)).egg.id;
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await panel?.close();
});

describe('egg tests through the application API', () => {
  it('runs a test in the background: 202 with the run, read to its verdict, the server gone', async () => {
    const started = await adminClient.post(URL_, {
      egg,
      node: daemon.node.id,
      environment: { GREETING: 'from-the-api' },
      timeout: 60,
    });
    expect(started.status, started.text).toBe(202);
    expect(started.body.object).toBe('egg_test');
    const run = eggTestRunSchema.parse(started.body.attributes);
    expect(run).toMatchObject({
      egg,
      node: daemon.node.id,
      status: 'running',
      timeout: 60,
      finished_at: null,
    });
    expect(run.steps.map((s) => s.name)).toEqual(['create', 'install', 'start', 'stop', 'remove']);

    const seen = new Set<string>();
    const done = await waitUntil(
      'the egg test',
      async () => {
        const res = await adminClient.get(`${URL_}/${run.id}`);
        expect(res.status, res.text).toBe(200);
        const now = eggTestRunSchema.parse(res.body.attributes);
        for (const s of now.steps) if (s.status === 'running') seen.add(s.name);
        return now;
      },
      (r) => r.status !== 'running',
      90_000,
      50,
    );
    expect(done.status, JSON.stringify(done.steps, null, 2)).toBe('passed');
    expect(done.finished_at).not.toBeNull();
    for (const step of done.steps) {
      expect(step.status).toBe('passed');
      expect(step.duration_ms).toBeGreaterThanOrEqual(0);
      expect(step.message).toBeTruthy();
    }
    expect(done.steps.find((s) => s.name === 'start')!.lines).toContain('Greeting: from-the-api');
    // The page saw a step while it ran (the install takes a daemon round trip at least).
    expect(seen.size).toBeGreaterThan(0);
    expect(await serverCount()).toBe(0);
  }, 120_000);

  it('refuses a guest (401), a non-admin (403), a key without write access to servers (403), and any client key (403)', async () => {
    const body = { egg };
    expectError(
      await new TestClient(panel.url).post(URL_, body),
      401,
      'AuthenticationException',
      'Unauthenticated.',
    );
    const player = await panel.createUser();
    expectError(
      await (await panel.signedIn(player)).post(URL_, body),
      403,
      'AccessDeniedHttpException',
      'This account does not have permission to access the API.',
    );
    const readOnly = await applicationClient(panel, admin, { r_servers: READ, r_eggs: FULL, r_nodes: FULL });
    expectError(
      await readOnly.post(URL_, body),
      403,
      'AccessDeniedHttpException',
      'This action is unauthorized.',
    );
    expectError(
      await readOnly.get(`${URL_}/x`),
      404,
      'NotFoundHttpException',
      'The requested resource could not be found on the server.',
    );
    const noServers = await applicationClient(panel, admin, { r_eggs: FULL, r_nodes: FULL });
    expectError(
      await noServers.get(`${URL_}/x`),
      403,
      'AccessDeniedHttpException',
      'This action is unauthorized.',
    );
    expectError(
      await (await clientKeyClient(panel, player)).post(URL_, body),
      403,
      'AccessDeniedHttpException',
      'This account does not have permission to access the API.',
    );
    expect(await serverCount()).toBe(0);
  });

  it('answers 422 naming the field for a bad egg, node, variable or timeout, and creates nothing', async () => {
    expectInvalid(await adminClient.post(URL_, {}), 'egg', 'The egg field is required.');
    expectInvalid(await adminClient.post(URL_, { egg: 999_999 }), 'egg', 'The selected egg is invalid.');
    expectInvalid(await adminClient.post(URL_, { egg: 'seven' }), 'egg', 'The egg must be an integer.');
    expectInvalid(
      await adminClient.post(URL_, { egg, node: 999_999 }),
      'node',
      'The selected node is invalid.',
    );
    expectInvalid(
      await adminClient.post(URL_, { egg, environment: { GREETING: '' } }),
      'environment.GREETING',
      'The Greeting variable field is required.',
    );
    expectInvalid(
      await adminClient.post(URL_, { egg, environment: { GREETING: 'x'.repeat(41) } }),
      'environment.GREETING',
      'The Greeting variable may not be greater than 40 characters.',
    );
    expectInvalid(
      await adminClient.post(URL_, { egg, environment: { LD_PRELOAD: '/tmp/x.so' } }),
      'environment.LD_PRELOAD',
      'The egg has no variable LD_PRELOAD.',
    );
    expectInvalid(
      await adminClient.post(URL_, { egg, timeout: 0 }),
      'timeout',
      'The timeout must be between 1 and 3600.',
    );
    // A node whose only allocation is gone: nowhere to put the server.
    const bare = await insertNode(panel);
    await panel.ctx.db.db.deleteFrom('allocations').where('id', '=', bare.allocationId).execute();
    const full = await panel.ctx.repositories.nodes.findById(bare.nodeId);
    expectInvalid(
      await adminClient.post(URL_, { egg, node: bare.nodeId }),
      'node',
      `The node "${full!.name}" has no free allocation: add one to it first.`,
    );
    expect(await serverCount()).toBe(0);
  });

  it('answers 404 for a run this panel does not know', async () => {
    expectError(
      await adminClient.get(`${URL_}/00000000-0000-0000-0000-000000000000`),
      404,
      'NotFoundHttpException',
      'The requested resource could not be found on the server.',
    );
  });

  it('a panel that stops ends a running test at once (not after its time limit) and removes its server', async () => {
    const nest = await panel.ctx.services.eggs.ensureNest('Egg tests', 'Fixtures of the egg test runner.');
    const text = readFileSync(path.join(FIXTURES, 'egg-test-never-done.json'), 'utf8');
    const never = (await panel.ctx.services.eggs.importFile(text, nest.id)).egg.id;
    const started = await adminClient.post(URL_, { egg: never, timeout: 3600 });
    expect(started.status, started.text).toBe(202);
    const id = started.body.attributes.id as string;
    await waitUntil(
      'the start step',
      async () => eggTestRunSchema.parse((await adminClient.get(`${URL_}/${id}`)).body.attributes),
      (r) => r.steps.find((s) => s.name === 'start')!.status === 'running',
      60_000,
    );
    expect(await serverCount()).toBe(1);
    // What the panel's shutdown does first: close the HTTP app (its hooks end the runs).
    await panel.app.close();
    expect(await serverCount()).toBe(0);
  }, 120_000);
});
