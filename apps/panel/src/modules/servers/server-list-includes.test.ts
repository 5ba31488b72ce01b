import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, User } from '../../db/types.ts';
import type { TestClient } from '../../test-support/client.ts';
import { addSubuser, nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { countingQueries } from '../../test-support/query-counter.ts';
import { optionalServerRelationships } from './server-includes.ts';
import { clientServerPage } from './server-list.ts';
import { ServersRepository } from './servers.repository.ts';
import { SubusersRepository } from '../subusers/subusers.repository.ts';

// `include=egg,subusers` on the client server list (reference §3.1 available includes), as on the
// details route: the subusers of the whole page in one query, a null resource without user.read.
let panel: TestPanel;
let alice: User;
let bob: User;
let carol: User;
let own: Server;
let shared: Server;
let aliceClient: TestClient;
let bobClient: TestClient;

beforeAll(async () => {
  panel = await startTestPanel();
  const { node, egg } = await nodeAndEgg(panel.ctx, [45300, 45359]);
  alice = await panel.createUser({ username: 'alice' });
  bob = await panel.createUser({ username: 'bob' });
  carol = await panel.createUser({ username: 'carol' });
  own = await serverRow(panel.ctx, node, egg, alice.id, { name: 'Own' });
  shared = await serverRow(panel.ctx, node, egg, alice.id, { name: 'Shared' });
  await addSubuser(panel.ctx, shared, bob, ['control.console']);
  await addSubuser(panel.ctx, shared, carol, ['user.read']);
  for (let i = 0; i < 40; i++) await serverRow(panel.ctx, node, egg, alice.id, { name: `Filler ${i}` });
  aliceClient = await panel.signedIn(alice);
  bobClient = await panel.signedIn(bob);
});
afterAll(async () => {
  await panel.close();
});

type Listed = { data: { attributes: { uuid: string; relationships: Record<string, any> } }[] };
const relationshipsOf = async (client: TestClient, uuid: string, include: string) => {
  const res = await client.request<Listed>('GET', `/api/client?include=${include}&per_page=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.data.find((d) => d.attributes.uuid === uuid)!.attributes.relationships;
};

describe('GET /api/client?include=…', () => {
  it('gives each server its egg and its subusers', async () => {
    const rel = await relationshipsOf(aliceClient, shared.uuid, 'egg,subusers');
    expect(rel.egg.object).toBe('egg');
    expect(rel.egg.attributes.name).toEqual(expect.any(String));
    expect(rel.subusers.object).toBe('list');
    expect(rel.subusers.data.map((s: any) => s.attributes.username).sort()).toEqual(['bob', 'carol']);
    expect((await relationshipsOf(aliceClient, own.uuid, 'subusers')).subusers.data).toEqual([]);
    expect(rel.allocations.object).toBe('list'); // the default relationships stay
  });

  it('shows a subuser without user.read a null resource', async () => {
    const rel = await relationshipsOf(bobClient, shared.uuid, 'subusers');
    expect(rel.subusers).toEqual({ object: 'null_resource', attributes: null });
  });

  it('adds nothing without the include, and ignores unknown names', async () => {
    const rel = await relationshipsOf(aliceClient, shared.uuid, 'nonsense');
    expect(Object.keys(rel).sort()).toEqual(['allocations', 'variables']);
  });

  it('reads the subusers of a page in one query, whatever the page size', async () => {
    const queries = async (limit: number) => {
      const counted = countingQueries(panel.ctx.db.db);
      const subusers = new SubusersRepository(counted.db);
      await clientServerPage(
        new ServersRepository(counted.db),
        alice,
        { kind: 'member', userId: alice.id },
        {
          offset: 0,
          limit,
          relationships: (shown) => optionalServerRelationships({ include: 'subusers' }, shown, subusers),
        },
      );
      return counted.count();
    };
    expect(await queries(40)).toBe(await queries(2));
  });
});
