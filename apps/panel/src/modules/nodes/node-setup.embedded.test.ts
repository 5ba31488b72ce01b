// The embedded default's node (the panel configures and starts its daemon) has no setup command:
// GET /api/application/nodes/{id}/setup says so, and minting a setup token for it is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { expectError } from '../../test-support/client.ts';
import { nodeAndEgg } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { insertNode } from '../application/testing.ts';
import { EMBEDDED_NODE_HAS_NO_SETUP } from './node-extensions.routes.ts';

let panel: TestPanel | undefined;
afterEach(async () => {
  await panel?.close();
  panel = undefined;
});

async function setUp(env: Record<string, string>) {
  panel = await startTestPanel(env);
  const { node } = await nodeAndEgg(panel.ctx, [25000, 25002]);
  const { nodeId: otherId } = await insertNode(panel);
  const session = await panel.signedIn(await panel.createUser({ admin: true }));
  const tokens = () => panel!.ctx.db.db.selectFrom('node_setup_tokens').selectAll().execute();
  return { localId: node.id, otherId, session, tokens };
}

describe('setup of the embedded node', () => {
  it('the local node of the embedded default needs no setup: flagged, and no token is made', async () => {
    const { localId, otherId, session, tokens } = await setUp({ LOCAL_DAEMON: 'true' });
    const local = await session.get(`/api/application/nodes/${localId}/setup`);
    expect(local.status, local.text).toBe(200);
    expect(local.body).toEqual({ object: 'node_setup', attributes: { embedded: true } });
    expectError(
      await session.post(`/api/application/nodes/${localId}/setup-token`),
      400,
      'DisplayException',
      EMBEDDED_NODE_HAS_NO_SETUP,
    );
    expect(await tokens()).toEqual([]);

    const other = await session.get(`/api/application/nodes/${otherId}/setup`);
    expect(other.body).toEqual({ object: 'node_setup', attributes: { embedded: false } });
    expect((await session.post(`/api/application/nodes/${otherId}/setup-token`)).status).toBe(201);
    expect(await session.get(`/api/application/nodes/999999/setup`)).toMatchObject({ status: 404 });
  });

  it('with the local daemon turned off, the node named Local is set up like any other', async () => {
    const { localId, session } = await setUp({ LOCAL_DAEMON: 'false' });
    const local = await session.get(`/api/application/nodes/${localId}/setup`);
    expect(local.body).toEqual({ object: 'node_setup', attributes: { embedded: false } });
    expect((await session.post(`/api/application/nodes/${localId}/setup-token`)).status).toBe(201);
  });
});
