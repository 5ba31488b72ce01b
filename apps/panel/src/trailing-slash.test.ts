import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, User } from './db/types.ts';
import { KEY_TYPE } from './modules/api-keys/api-keys.service.ts';
import { firstError, TestClient } from './test-support/client.ts';
import { applicationClient, nodeAndEgg, serverRow } from './test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from './test-support/panel.ts';

// The original answers every API route with or without a trailing slash, and clients rely on it:
// nodeactyl's getServerPage asks for `api/client/?page=N` (src/utils/NodeactylRequest.js).
let panel: TestPanel;
let owner: User;
let server: Server;
let foreign: Server;
let keyed: TestClient;
let app: TestClient;

beforeAll(async () => {
  panel = await startTestPanel();
  const { node, egg } = await nodeAndEgg(panel.ctx, [44610, 44613]);
  owner = await panel.createUser({ username: 'slasher' });
  const stranger = await panel.createUser({ username: 'stranger' });
  server = await serverRow(panel.ctx, node, egg, owner.id, { name: 'Slash world' });
  foreign = await serverRow(panel.ctx, node, egg, stranger.id, { name: 'Not yours' });
  const { key, secret } = await panel.ctx.services.apiKeys.create(owner, KEY_TYPE.client, {
    description: 'nodeactyl',
  });
  keyed = TestClient.withKey(panel.url, key.identifier + secret);
  app = await applicationClient(panel);
});
afterAll(async () => {
  await panel.close();
});

/** Both spellings answer the same status and body. */
async function sameWithSlash(client: TestClient, path: string, query = '') {
  const plain = await client.get(path + query);
  const slashed = await client.get(`${path}/${query}`);
  expect(slashed.status, slashed.text).toBe(plain.status);
  expect(slashed.body).toEqual(plain.body);
  return slashed;
}

describe('a trailing slash on API routes', () => {
  it("lists servers at nodeactyl's getServerPage URL, /api/client/?page=1", async () => {
    const res = await sameWithSlash(keyed, '/api/client', '?page=1');
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { attributes: { name: string } }) => s.attributes.name)).toEqual([
      'Slash world',
    ]);
  });

  it('answers account and server routes as without the slash', async () => {
    expect((await sameWithSlash(keyed, '/api/client/account')).status).toBe(200);
    const details = await sameWithSlash(keyed, `/api/client/servers/${server.uuid_short}`);
    expect(details.status).toBe(200);
    expect(details.body.attributes.name).toBe('Slash world');
  });

  it("keeps the server guard: someone else's server is still not found with the slash", async () => {
    const res = await sameWithSlash(keyed, `/api/client/servers/${foreign.uuid_short}`);
    expect(res.status).toBe(404);
  });

  it('answers application routes as without the slash, and keeps their authentication', async () => {
    expect((await sameWithSlash(app, '/api/application/users')).status).toBe(200);
    const one = await sameWithSlash(app, `/api/application/servers/${server.id}`);
    expect(one.status).toBe(200);
    expect(one.body.attributes.name).toBe('Slash world');
    const anonymous = new TestClient(panel.url);
    expect((await anonymous.get('/api/application/users/')).status).toBe(401);
    expect((await anonymous.get('/api/application/no-such-thing/')).status).toBe(401);
    expect((await app.get('/api/application/no-such-thing/')).status).toBe(404);
  });

  it('takes writes with the slash too', async () => {
    const res = await keyed.post('/api/client/account/api-keys/', { description: 'slashed' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes.description).toBe('slashed');
  });

  it('still answers 405 with Allow for a known path and another method, and 404 for unknown paths', async () => {
    const plain = await keyed.request('DELETE', '/api/client/account');
    const slashed = await keyed.request('DELETE', '/api/client/account/');
    expect(plain.status).toBe(405);
    expect(slashed.status).toBe(405);
    expect(slashed.headers.get('allow')).toBe(plain.headers.get('allow'));
    const unknown = await keyed.get('/api/client/no-such-thing/');
    expect(unknown.status).toBe(404);
    expect(firstError(unknown).code).toBe('NotFoundHttpException');
  });

  it('keeps the two-factor set-up routes exempt, and the others blocked, with the slash', async () => {
    const required = await startTestPanel({ APP_2FA_REQUIRED: '2' });
    try {
      const client = await required.signedIn(await required.createUser());
      expect((await client.get('/api/client/account/')).status).toBe(200);
      expect((await client.get('/api/client/account/two-factor/')).status).toBe(200);
      const blocked = await client.get('/api/client/permissions/');
      expect(blocked.status).toBe(400);
      expect(firstError(blocked).code).toBe('TwoFactorAuthRequiredException');
    } finally {
      await required.close();
    }
  });
});
