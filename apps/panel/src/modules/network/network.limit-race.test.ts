import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import { expectError, type Res, type TestClient } from '../../test-support/client.ts';
import { nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { clientAllocationsEnv, startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// CVE-2025-69198 / CVE-2026-35202: parallel client allocation creates raced past
// `allocation_limit` (count, then assign). Eight requests at once through real HTTP against a
// server with room for one more allocation must give it exactly one.
const NODE_PORTS: [number, number] = [44300, 44315];
const RANGE: [number, number] = [44330, 44345];
const PARALLEL = 8;
const LIMIT_REACHED = 'Cannot assign additional allocations to this server: limit has been reached.';

let panel: TestPanel;
let node: Node;
let egg: Egg;
let owner: User;
let client: TestClient;

const allocationsOf = (s: Server) =>
  panel.ctx.db.db.selectFrom('allocations').selectAll().where('server_id', '=', s.id).execute();

function createAtOnce(s: Server): Promise<Res[]> {
  return Promise.all(
    Array.from({ length: PARALLEL }, () =>
      client.post(`/api/client/servers/${s.uuid_short}/network/allocations`),
    ),
  );
}

function expectOneWinner(results: Res[]) {
  expect(results.map((r) => r.status).sort()).toEqual([200, ...Array<number>(PARALLEL - 1).fill(400)]);
  for (const loser of results.filter((r) => r.status !== 200)) {
    expectError(loser, 400, 'DisplayException', LIMIT_REACHED);
  }
}

beforeAll(async () => {
  panel = await startTestPanel(clientAllocationsEnv(RANGE));
  ({ node, egg } = await nodeAndEgg(panel.ctx, NODE_PORTS));
  owner = await panel.createUser({ username: 'owner' });
  client = await panel.signedIn(owner);
});

afterAll(async () => {
  await panel?.close();
});

describe('allocation limit under parallel creates (CVE-2025-69198, CVE-2026-35202)', () => {
  it('8 parallel creates with room for one (free allocations on the node): one 200, seven refused, 2 allocations', async () => {
    const server = await serverRow(panel.ctx, node, egg, owner.id, { allocation_limit: 2 });
    expectOneWinner(await createAtOnce(server));
    expect(await allocationsOf(server)).toHaveLength(2);
  });

  it('8 parallel creates with room for one (new ports from the range): one 200, seven refused, one port made', async () => {
    const server = await serverRow(panel.ctx, node, egg, owner.id, { allocation_limit: 2 });
    // Every other allocation of the node goes to a filler server, so new ports come from the range.
    const filler = await serverRow(panel.ctx, node, egg, owner.id);
    await panel.ctx.db.db
      .updateTable('allocations')
      .set({ server_id: filler.id })
      .where('node_id', '=', node.id)
      .where('server_id', 'is', null)
      .execute();
    expectOneWinner(await createAtOnce(server));
    expect(await allocationsOf(server)).toHaveLength(2);
    const made = await panel.ctx.db.db
      .selectFrom('allocations')
      .select('port')
      .where('port', '>=', RANGE[0])
      .where('port', '<=', RANGE[1])
      .execute();
    expect(made).toHaveLength(1);
  });
});
