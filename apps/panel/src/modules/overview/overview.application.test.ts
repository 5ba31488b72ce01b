import { readFileSync } from 'node:fs';
import path from 'node:path';
import { adminOverviewSchema } from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, TestClient } from '../../test-support/client.ts';
import { nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { everyKeyOf } from '../application/testing.ts';

// GET /api/application/overview (docs/api.md "Admin overview"): the admin area's first screen.

const URL_ = '/api/application/overview';
const panelVersion = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../package.json'), 'utf8')) as {
    version: string;
  }
).version;

let panel: TestPanel;
let admin: User;
let adminClient: TestClient;

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  adminClient = await panel.signedIn(admin);
});
afterAll(async () => {
  await panel?.close();
});

describe('GET /api/application/overview', () => {
  it('on a fresh panel: the version, zero counts and no first step done', async () => {
    const res = await adminClient.get(URL_);
    expect(res.status, res.text).toBe(200);
    expect(adminOverviewSchema.parse(res.body.attributes)).toEqual(res.body.attributes);
    expect(res.body).toEqual({
      object: 'overview',
      attributes: {
        version: panelVersion,
        counts: { users: 1, servers: 0, nodes: 0, locations: 0, nests: 0, eggs: 0, database_hosts: 0 },
        first_steps: { node_ready: false, egg_available: false, server_created: false, user_invited: false },
      },
    });
  });

  it('counts what exists and marks each first step done as the admin goes', async () => {
    const { node, egg } = await nodeAndEgg(panel.ctx, [44730, 44731]);
    expect((await adminClient.get(URL_)).body.attributes.first_steps).toEqual({
      node_ready: true,
      egg_available: true,
      server_created: false,
      user_invited: false,
    });

    const owner = await panel.createUser();
    await serverRow(panel.ctx, node, egg, owner.id);
    const { attributes } = (await adminClient.get(URL_)).body;
    expect(attributes.first_steps).toEqual({
      node_ready: true,
      egg_available: true,
      server_created: true,
      user_invited: true,
    });
    const eggs = await panel.ctx.db.db.selectFrom('eggs').select('id').execute();
    const nests = await panel.ctx.db.db.selectFrom('nests').select('id').execute();
    expect(attributes.counts).toEqual({
      users: 2,
      servers: 1,
      nodes: 1,
      locations: 1,
      nests: nests.length,
      eggs: eggs.length,
      database_hosts: 0,
    });
  });

  it('refuses a guest (401), a non-admin (403) and every API key, even a full one (403)', async () => {
    expectError(
      await new TestClient(panel.url).get(URL_),
      401,
      'AuthenticationException',
      'Unauthenticated.',
    );
    expectError(
      await (await panel.signedIn(await panel.createUser())).get(URL_),
      403,
      'AccessDeniedHttpException',
      'This account does not have permission to access the API.',
    );
    for (const key of await everyKeyOf(panel, admin)) {
      expectError(await key.get(URL_), 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
    }
  });
});
