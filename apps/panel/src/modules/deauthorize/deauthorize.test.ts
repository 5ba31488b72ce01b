import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, User } from '../../db/types.ts';
import { ensureLocalNode } from '../../embedded/local-node.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import type { TestClient } from '../../test-support/client.ts';
import { freePort } from '../../test-support/daemon.ts';
import { addSubuser, gameServerEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { userServerTokenId } from '../servers/token-id.ts';

// The nodes the panel cannot end sessions on the new way: a Wings older than 1.12 (no
// POST /api/deauthorize-user, 404) gets the older ws/deny of the user's token id on each server;
// a node that does not answer is logged and does not block the change. The node here is a small
// HTTP listener answering as an older Wings does.
let panel: TestPanel;
let older: http.Server;
const seen: { method: string; url: string; body: unknown }[] = [];
const logged: string[] = [];
let server: Server;
let owner: User;
let ownerClient: TestClient;
const PASSWORD = 'older wings password';

beforeAll(async () => {
  older = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body: body ? (JSON.parse(body) as unknown) : null });
      if (req.method === 'POST' && /^\/api\/servers\/[^/]+\/ws\/deny$/u.test(req.url!)) {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'The requested resource does not exist on this instance.' }));
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => older.listen(port, '127.0.0.1', r));
  const log = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
  panel = await startTestPanel({}, { log });
  const first = 10_000 + Math.floor(Math.random() * 8_000);
  const { node } = await ensureLocalNode(panel.ctx, {
    daemonPort: (older.address() as AddressInfo).port,
    sftpPort: await freePort(),
    ports: [first, first + 1],
  });
  owner = await panel.createUser({ password: PASSWORD });
  ownerClient = await panel.signedIn(owner);
  server = await serverRow(panel.ctx, node, await gameServerEgg(panel.ctx), owner.id);
}, 60_000);

afterAll(async () => {
  older?.close();
  await panel?.close();
});

describe('a node without POST /api/deauthorize-user (Wings before 1.12)', () => {
  it("removing a subuser denies the user's token id on that server instead", async () => {
    const user = await panel.createUser({ password: PASSWORD });
    await addSubuser(panel.ctx, server, user, ['websocket.connect']);
    seen.length = 0;
    const res = await ownerClient.delete(`/api/client/servers/${server.uuid_short}/users/${user.uuid}`);
    expect(res.status, res.text).toBe(204);
    expect(seen).toEqual([
      { method: 'POST', url: '/api/deauthorize-user', body: { user: user.uuid, servers: [server.uuid] } },
      {
        method: 'POST',
        url: `/api/servers/${server.uuid}/ws/deny`,
        body: { jtis: [userServerTokenId(user.id, server.uuid)] },
      },
    ]);
  });

  it("a password change asks the whole node, then denies the user's token id on each of their servers", async () => {
    const user = await panel.createUser({ password: PASSWORD });
    await addSubuser(panel.ctx, server, user, ['websocket.connect']);
    const client = await panel.signedIn(user);
    seen.length = 0;
    const res = await client.put('/api/client/account/password', {
      current_password: PASSWORD,
      password: 'another new password',
      password_confirmation: 'another new password',
    });
    expect(res.status, res.text).toBe(204);
    expect(seen).toEqual([
      { method: 'POST', url: '/api/deauthorize-user', body: { user: user.uuid } },
      {
        method: 'POST',
        url: `/api/servers/${server.uuid}/ws/deny`,
        body: { jtis: [userServerTokenId(user.id, server.uuid)] },
      },
    ]);
  });
});

describe('a node that does not answer', () => {
  it('does not block a password change: the password is changed, the failure logged', async () => {
    await new Promise<void>((r) => older.close(() => r()));
    older.closeAllConnections();
    const client = await panel.signedIn(owner);
    const res = await client.put('/api/client/account/password', {
      current_password: PASSWORD,
      password: 'changed while the node is down',
      password_confirmation: 'changed while the node is down',
    });
    expect(res.status, res.text).toBe(204);
    const stored = await panel.ctx.repositories.users.findById(owner.id);
    expect(await verifyPassword(stored!.password, 'changed while the node is down')).toBe(true);
    expect(logged.join('\n')).toContain('the node could not be told to end the sessions of a user');
  });
});
