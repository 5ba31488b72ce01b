import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { NOT_FOUND_RECORD } from '../../http/errors.ts';
import { routeTable, type DeclaredRoute } from '../../http/route-guard.ts';
import type { TestClient } from '../../test-support/client.ts';
import { databaseRow, unreachableDatabaseHost } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { ALL_APPLICATION_RIGHTS, applicationClient, insertNode, insertServer } from './testing.ts';

// Issue 23 item 9: `GET /api/application/servers/2/databases/3` answered server 1's database. This
// walks every application route of the real route table whose path names a parent and a child, and
// asks for each child under a parent it does not belong to (every split of the path: the first
// parameters from family B, the rest from family A). Each must be 404 and change nothing. A new
// nested route whose parameters have no family here fails the walk, so it cannot be forgotten.

const NOT_FOUND = { errors: [{ code: 'NotFoundHttpException', status: '404', detail: NOT_FOUND_RECORD }] };

/** Two unrelated families of records, one value per path parameter, keyed by the path's prefix. */
type Family = Record<string, string>;
const families = new Map<string, { a: Family; b: Family }>();

let panel: TestPanel;
let admin: User;
let api: TestClient;
const db = () => panel.ctx.db.db;

const insertDatabase = (serverId: number, hostId: number, name: string): Promise<number> =>
  databaseRow(panel.ctx, { serverId, hostId, database: name, username: `u_${name}` });

async function insertVariable(eggId: number): Promise<number> {
  const at = new Date().toISOString();
  const row = await db()
    .insertInto('egg_variables')
    .values({
      egg_id: eggId,
      name: 'Version',
      description: '',
      env_variable: 'VERSION',
      default_value: '1',
      user_viewable: 1,
      user_editable: 1,
      rules: 'required|string',
      sort: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Everything a nested route could change, to compare before and after. */
async function snapshot() {
  const tables = [
    'databases',
    'database_hosts',
    'allocations',
    'eggs',
    'egg_variables',
    'nests',
    'servers',
  ] as const;
  const rows = await Promise.all(tables.map((t) => db().selectFrom(t).selectAll().orderBy('id').execute()));
  return JSON.stringify(rows);
}

function concrete(url: string, values: Family): string {
  return url.replace(/:(\w+)/gu, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no family value for :${name} in ${url}`);
    return value;
  });
}

function familiesOf(route: DeclaredRoute) {
  for (const [prefix, pair] of families) if (route.url.startsWith(prefix)) return pair;
  throw new Error(`${route.method} ${route.url}: a nested route with no family of records in this test`);
}

const paramsOf = (url: string) => [...url.matchAll(/:(\w+)/gu)].map((m) => m[1]!);
const label = (r: DeclaredRoute) => `${r.method} ${r.url}`;

/** Application routes whose path names a child under a parent (two parameters or more). */
const nestedRoutes = () =>
  routeTable(panel.app).filter(
    (r) => r.url.startsWith('/api/application/') && r.method !== 'HEAD' && paramsOf(r.url).length >= 2,
  );

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  api = await applicationClient(panel, admin, ALL_APPLICATION_RIGHTS);
  const nodeA = await insertNode(panel, { port: 25565 });
  const nodeB = await insertNode(panel, { port: 25566 });
  // insertServer gives each server a nest and an egg of its own.
  const serverA = await insertServer(panel, {
    ownerId: admin.id,
    nodeId: nodeA.nodeId,
    allocationId: nodeA.allocationId,
  });
  const serverB = await insertServer(panel, {
    ownerId: admin.id,
    nodeId: nodeB.nodeId,
    allocationId: nodeB.allocationId,
  });
  // The host is never contacted: the parent check answers first.
  const hostId = await unreachableDatabaseHost(panel.ctx, 'nested');
  const eggOf = (serverId: number) =>
    db()
      .selectFrom('servers')
      .select(['egg_id', 'nest_id'])
      .where('id', '=', serverId)
      .executeTakeFirstOrThrow();
  const [a, b] = [await eggOf(serverA), await eggOf(serverB)];
  families.set('/api/application/servers/', {
    a: { id: String(serverA), db: String(await insertDatabase(serverA, hostId, 's_a')) },
    b: { id: String(serverB), db: String(await insertDatabase(serverB, hostId, 's_b')) },
  });
  families.set('/api/application/nodes/', {
    a: { id: String(nodeA.nodeId), allocation: String(nodeA.allocationId) },
    b: { id: String(nodeB.nodeId), allocation: String(nodeB.allocationId) },
  });
  families.set('/api/application/nests/', {
    a: { nest: String(a.nest_id), egg: String(a.egg_id), variable: String(await insertVariable(a.egg_id)) },
    b: { nest: String(b.nest_id), egg: String(b.egg_id), variable: String(await insertVariable(b.egg_id)) },
  });
});
afterAll(async () => {
  await panel?.close();
});

describe('nested application routes check their parent', () => {
  it('finds the nested routes it knows (servers/databases, nodes/allocations, nests/eggs/variables)', () => {
    const urls = new Set(nestedRoutes().map((r) => r.url));
    expect(urls).toContain('/api/application/servers/:id/databases/:db');
    expect(urls).toContain('/api/application/nodes/:id/allocations/:allocation');
    expect(urls).toContain('/api/application/nests/:nest/eggs/:egg/variables/:variable');
  });

  it('answers each GET of its own family (so the 404s below are about the parent)', async () => {
    for (const route of nestedRoutes().filter((r) => r.method === 'GET')) {
      const res = await api.get(concrete(route.url, familiesOf(route).a));
      expect(res.status, label(route)).toBe(200);
    }
  });

  it('answers 404 to a child under another parent, on every verb, and changes nothing', async () => {
    const before = await snapshot();
    let probes = 0;
    for (const route of nestedRoutes()) {
      const { a, b } = familiesOf(route);
      const names = paramsOf(route.url);
      for (let split = 1; split < names.length; split++) {
        // The first `split` parameters name family B's records, the rest family A's.
        const values = Object.fromEntries(names.map((n, i) => [n, (i < split ? b : a)[n]!]));
        const path = concrete(route.url, values);
        const body = { name: 'changed', alias: 'changed', notes: 'changed', description: 'changed' };
        const res =
          route.method === 'GET' || route.method === 'DELETE'
            ? await api.request(route.method, path)
            : await api.request(route.method, path, body);
        expect({ status: res.status, body: res.body as unknown }, `${label(route)} as ${path}`).toEqual({
          status: 404,
          body: NOT_FOUND,
        });
        probes += 1;
      }
    }
    expect(probes).toBeGreaterThanOrEqual(10);
    expect(await snapshot()).toBe(before);
  });
});
