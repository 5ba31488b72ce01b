import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Allocation, Server, User } from '../../db/types.ts';
import type { TestClient } from '../../test-support/client.ts';
import { nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// filter[*] on the client server list finds a server by the address its card shows: the alias
// (the local node's is localhost) or the IP, with or without the port, or the port alone (issue 11).
let panel: TestPanel;
let owner: User;
let client: TestClient;
let aliased: Server;
let plain: Server;
let aliasedAt: Allocation;
let plainAt: Allocation;

beforeAll(async () => {
  panel = await startTestPanel();
  const { node, egg } = await nodeAndEgg(panel.ctx, [46100, 46109]);
  owner = await panel.createUser({ username: 'searcher' });
  client = await panel.signedIn(owner);
  aliased = await serverRow(panel.ctx, node, egg, owner.id, { name: 'Aliased World' });
  plain = await serverRow(panel.ctx, node, egg, owner.id, { name: 'Plain World' });
  const db = panel.ctx.db.db;
  await db
    .updateTable('allocations')
    .set({ ip_alias: 'Play.Example.Test' })
    .where('id', '=', aliased.allocation_id)
    .execute();
  await db.updateTable('allocations').set({ ip_alias: null }).where('id', '=', plain.allocation_id).execute();
  aliasedAt = await db
    .selectFrom('allocations')
    .selectAll()
    .where('id', '=', aliased.allocation_id)
    .executeTakeFirstOrThrow();
  plainAt = await db
    .selectFrom('allocations')
    .selectAll()
    .where('id', '=', plain.allocation_id)
    .executeTakeFirstOrThrow();
});
afterAll(async () => {
  await panel.close();
});

async function search(term: string): Promise<string[]> {
  const res = await client.get(`/api/client?filter[*]=${encodeURIComponent(term)}`);
  expect(res.status).toBe(200);
  return res.body.data.map((s: any) => s.attributes.name as string).sort();
}

describe('filter[*] by address', () => {
  it('matches the alias shown on the card, with or without the port, in any case', async () => {
    expect(await search(`play.example.test:${aliasedAt.port}`)).toEqual(['Aliased World']);
    expect(await search('play.example.test')).toEqual(['Aliased World']);
    expect(await search(`PLAY.EXAMPLE.TEST:${aliasedAt.port}`)).toEqual(['Aliased World']);
    // The alias with another server's port names no server.
    expect(await search(`play.example.test:${plainAt.port}`)).toEqual([]);
  });

  it('matches the port alone, bare or after a colon', async () => {
    expect(await search(String(plainAt.port))).toEqual(['Plain World']);
    expect(await search(`:${plainAt.port}`)).toEqual(['Plain World']);
    expect(await search(String(aliasedAt.port))).toEqual(['Aliased World']);
  });

  it('still matches the IP, with or without the port', async () => {
    expect(await search(`${plainAt.ip}:${plainAt.port}`)).toEqual(['Plain World']);
    expect(await search(`${aliasedAt.ip}:${aliasedAt.port}`)).toEqual(['Aliased World']);
    expect(await search(plainAt.ip)).toEqual(['Aliased World', 'Plain World']);
  });

  it('matches an IPv6 address as the card prints it, in brackets with or without the port, or bare', async () => {
    const db = panel.ctx.db.db;
    await db.updateTable('allocations').set({ ip: '2001:db8::5' }).where('id', '=', plainAt.id).execute();
    try {
      expect(await search(`[2001:db8::5]:${plainAt.port}`)).toEqual(['Plain World']);
      expect(await search(`[2001:DB8::5]:${String(plainAt.port).slice(0, 3)}`)).toEqual(['Plain World']);
      expect(await search('[2001:db8::5]')).toEqual(['Plain World']);
      expect(await search('2001:db8::5')).toEqual(['Plain World']);
      expect(await search(`[2001:db8::5]:${aliasedAt.port}`)).toEqual([]);
    } finally {
      await db.updateTable('allocations').set({ ip: plainAt.ip }).where('id', '=', plainAt.id).execute();
    }
  });

  it('keeps the name search, and a term that is no address matches no allocation', async () => {
    expect(await search('plain')).toEqual(['Plain World']);
    expect(await search('example')).toEqual([]);
    expect(await search('%')).toEqual([]);
  });
});
