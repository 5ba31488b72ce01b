import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, User } from '../../db/types.ts';
import { expectError, firstError, type TestClient } from '../../test-support/client.ts';
import { addSubuser, nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// The refusals of the file routes, on the panel alone: each is decided before the daemon would be
// asked, so the node of this server has none (the operations themselves: files*.daemon.test.ts).
let panel: TestPanel;
let owner: User;
let ownerClient: TestClient;
let readerClient: TestClient;
let server: Server;

const base = () => `/api/client/servers/${server.uuid_short}/files`;
const setStatus = (status: Server['status']) => panel.ctx.repositories.servers.update(server.id, { status });

beforeAll(async () => {
  panel = await startTestPanel();
  const { node, egg } = await nodeAndEgg(panel.ctx, [44400, 44409]);
  owner = await panel.createUser({ username: 'owner' });
  const reader = await panel.createUser({ username: 'reader' });
  server = await serverRow(panel.ctx, node, egg, owner.id);
  await addSubuser(panel.ctx, server, reader, ['file.read']);
  ownerClient = await panel.signedIn(owner);
  readerClient = await panel.signedIn(reader);
});
afterAll(async () => {
  await panel.close();
});

describe('the order of the checks: server state (409), then permission (403), then input (422)', () => {
  it('answers 409 on a suspended server to a subuser without the permission and to the owner with bad input', async () => {
    await setStatus('suspended');
    try {
      for (const res of [
        // the reader lacks file.delete, file.update, file.read-content, file.create
        await readerClient.post(`${base()}/delete`, { root: '/', files: ['a.txt'] }),
        await readerClient.put(`${base()}/rename`, { root: '/', files: [{ from: 'a', to: 'b' }] }),
        await readerClient.get(`${base()}/contents?file=a.txt`),
        await readerClient.postRaw(`${base()}/write?file=a.txt`, 'x'),
        // the owner may do anything, but these inputs are invalid
        await ownerClient.post(`${base()}/delete`, { files: 'not a list' }),
        await ownerClient.put(`${base()}/rename`, {}),
        await ownerClient.get(`${base()}/contents`),
        await ownerClient.postRaw(`${base()}/write`, 'x'),
        await ownerClient.post(`${base()}/chmod`, { root: '/', files: [{ file: 'a', mode: 'rwx' }] }),
      ]) {
        expectError(
          res,
          409,
          'ServerStateConflictException',
          'This server is currently suspended and the functionality requested is unavailable.',
        );
      }
    } finally {
      await setStatus(null);
    }
  });

  it('answers 403 before 422 on a usable server', async () => {
    for (const res of [
      await readerClient.post(`${base()}/delete`, { files: 'not a list' }),
      await readerClient.put(`${base()}/rename`, {}),
      await readerClient.get(`${base()}/contents`),
      await readerClient.postRaw(`${base()}/write`, 'x'),
      await readerClient.post(`${base()}/create-folder`, {}),
    ]) {
      expectError(res, 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
    }
    const invalid = await ownerClient.post(`${base()}/delete`, { files: 'not a list' });
    expect(invalid.status).toBe(422);
    expect(firstError(invalid).meta.source_field).toBe('root');
  });

  it('answers 404 before anything else to users with no relation to the server', async () => {
    const stranger = await panel.signedIn(await panel.createUser({ username: 'stranger' }));
    await setStatus('suspended');
    try {
      expect((await stranger.post(`${base()}/delete`, {})).status).toBe(404);
    } finally {
      await setStatus(null);
    }
  });
});
