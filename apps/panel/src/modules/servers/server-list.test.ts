import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { addSubuser, nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { countingQueries } from '../../test-support/query-counter.ts';
import { resolveServerAccess } from './server-access.ts';
import { clientServerPage } from './server-list.ts';
import { clientServerAttributes } from './servers.presenter.ts';
import { ServersRepository, type ListScope } from './servers.repository.ts';

// The client API's server list builds a page from one query per table, not a bundle per server.
let panel: TestPanel;
let alice: User;
let admin: User;

beforeAll(async () => {
  panel = await startTestPanel();
  const { node, egg } = await nodeAndEgg(panel.ctx, [45000, 45079]);
  alice = await panel.createUser({ username: 'alice' });
  const bob = await panel.createUser({ username: 'bob' });
  admin = await panel.createUser({ username: 'root', admin: true });
  const at = new Date().toISOString();
  for (let i = 0; i < 60; i++) {
    // Every third server is Bob's, shared with Alice with a different set of permissions each time,
    // so the page mixes owner rows with subuser rows that see less.
    const owner = i % 3 === 0 ? bob : alice;
    const server = await serverRow(panel.ctx, node, egg, owner.id, { name: `Server ${i}` });
    if (owner === bob) {
      const permissions = i % 2 === 0 ? ['control.console'] : ['allocation.read', 'startup.read'];
      await addSubuser(panel.ctx, server, alice, permissions, { created_at: at, updated_at: at });
    }
  }
});
afterAll(async () => {
  await panel.close();
});

/** The page as it was built before: the access check and a bundle for each server on its own. */
async function perServer(repo: ServersRepository, user: User, scope: ListScope, limit: number) {
  const { rows, total } = await repo.list(scope, { offset: 0, limit });
  const data = [];
  for (const server of rows) {
    const grants = await resolveServerAccess(repo, user, server.uuid);
    data.push(clientServerAttributes(await repo.bundle(server), grants));
  }
  return { data, total };
}

async function queriesFor(user: User, scope: ListScope, limit: number) {
  const counted = countingQueries(panel.ctx.db.db);
  const page = await clientServerPage(new ServersRepository(counted.db), user, scope, { offset: 0, limit });
  return { page, queries: counted.count() };
}

describe('clientServerPage', () => {
  it('runs as many queries for a page of 50 servers as for a page of 5', async () => {
    const scope: ListScope = { kind: 'member', userId: alice.id };
    const small = await queriesFor(alice, scope, 5);
    const large = await queriesFor(alice, scope, 50);
    expect(small.page.data).toHaveLength(5);
    expect(large.page.data).toHaveLength(50);
    expect(large.queries).toBe(small.queries);
  });

  it('answers exactly what the per-server build answered, for owners, subusers and admins', async () => {
    const repo = panel.ctx.repositories.servers;
    const cases: [User, ListScope][] = [
      [alice, { kind: 'member', userId: alice.id }],
      [alice, { kind: 'owner', userId: alice.id }],
      [admin, { kind: 'all' }],
      [admin, { kind: 'others', userId: admin.id }],
    ];
    for (const [user, scope] of cases) {
      const page = await clientServerPage(repo, user, scope, { offset: 0, limit: 100 });
      expect(JSON.stringify(page)).toBe(JSON.stringify(await perServer(repo, user, scope, 100)));
    }
  });
});
