// The one-line node setup, panel side: POST /api/application/nodes/{id}/setup-token (root admin's
// session only) and its redemption at GET /api/remote/node-setup/{token} (once, for 15 minutes).
import { Writable } from 'node:stream';
import { NODE_SETUP_TOKEN_MINUTES } from '@talon/shared/admin/node-wire';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { expectError, TestClient } from '../../test-support/client.ts';
import { activityAbout } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { applicationClient, FULL, insertNode } from '../application/testing.ts';
import { SETUP_TOKEN_EXPIRED, SETUP_TOKEN_UNKNOWN } from './node-setup.service.ts';
import { nodeSetupService } from './node-setup.wiring.ts';
import { SETUP_ATTEMPTS } from '../../remote/node-setup.routes.ts';

let panel: TestPanel;
let admin: User;
let session: TestClient;
let nodeId: number;
const anonymous = () => new TestClient(panel.url);

const mint = async (id = nodeId) => {
  const res = await session.post(`/api/application/nodes/${id}/setup-token`);
  expect(res.status, res.text).toBe(201);
  expect(res.body.object).toBe('node_setup_token');
  return res.body.attributes as { token: string; expires_at: string; command: string };
};
const redeem = (token: string) => anonymous().get(`/api/remote/node-setup/${token}`);
const tokenRows = () => panel.ctx.db.db.selectFrom('node_setup_tokens').selectAll().execute();

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  session = await panel.signedIn(admin);
  ({ nodeId } = await insertNode(panel));
});
afterAll(async () => {
  await panel?.close();
});

describe('node setup token', () => {
  it('a root admin session gets a 15-minute token and a one-line command; only its hash is stored', async () => {
    const before = Date.now();
    const minted = await mint();
    expect(minted.token).toMatch(/^[A-Za-z0-9]{48}$/u);
    const expires = Date.parse(minted.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + NODE_SETUP_TOKEN_MINUTES * 60_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + NODE_SETUP_TOKEN_MINUTES * 60_000);
    expect(minted.command).toBe(
      `npm run -s daemon -- configure --panel-url ${panel.url} --token ${minted.token}`,
    );
    const stored = (await tokenRows()).find((r) => r.token_hash === sha256Hex(minted.token));
    expect(stored).toMatchObject({ node_id: nodeId, created_by: admin.id });
    expect(JSON.stringify(await tokenRows())).not.toContain(minted.token);
    const events = await activityAbout(panel.ctx, { type: 'node', id: nodeId });
    expect(events.map((e) => e.event)).toContain('node:setup-token.create');
  });

  it("redeems once for the node's configuration document, then 404", async () => {
    const { token } = await mint();
    const first = await redeem(token);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const session = await panel.signedIn(admin);
    const configuration = await session.get(`/api/application/nodes/${nodeId}/configuration`);
    expect(first.body).toEqual(configuration.body);
    expect(first.body.token).toBeTruthy();
    expectError(await redeem(token), 404, 'NotFoundHttpException', SETUP_TOKEN_UNKNOWN);
    expect((await tokenRows()).some((r) => r.token_hash === sha256Hex(token))).toBe(false);
  });

  it('of simultaneous redemptions of one token exactly one gets the configuration', async () => {
    // Over HTTP (each request on its own connection) and straight at the service, many at once: a
    // lookup followed by a separate delete would let several through on both databases.
    await panel.ctx.authThrottle.clear('node-setup:127.0.0.1');
    const { token } = await mint();
    const answers = await Promise.all(Array.from({ length: 8 }, () => redeem(token)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);
    await panel.ctx.authThrottle.clear('node-setup:127.0.0.1');

    const service = nodeSetupService(panel.ctx);
    const actor = { userId: admin.id, apiKeyId: null, ip: null };
    for (let round = 0; round < 5; round++) {
      const { token: raced } = await service.mint(nodeId, actor);
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => service.redeem(raced, { userId: null, apiKeyId: null, ip: null })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((x) => x.status === 'rejected')) {
        expect(r.reason).toMatchObject({ status: 404 });
      }
    }
  });

  it('only a GET uses a token up: a HEAD (a link checker, a proxy) leaves it working', async () => {
    await panel.ctx.authThrottle.clear('node-setup:127.0.0.1');
    const { token } = await mint();
    const head = await anonymous().request('HEAD', `/api/remote/node-setup/${token}`);
    expect(head.status).not.toBe(200);
    expect((await tokenRows()).some((r) => r.token_hash === sha256Hex(token))).toBe(true);
    expect((await redeem(token)).status).toBe(200);
  });

  it('an expired token is refused (410) and gone; unknown and malformed tokens 404', async () => {
    // Minted by a clock 15 minutes and one second in the past: expired now, without waiting.
    const past = nodeSetupService(panel.ctx, () => Date.now() - NODE_SETUP_TOKEN_MINUTES * 60_000 - 1000);
    const { token } = await past.mint(nodeId, { userId: admin.id, apiKeyId: null, ip: '127.0.0.1' });
    expectError(await redeem(token), 410, 'GoneHttpException', SETUP_TOKEN_EXPIRED);
    expectError(await redeem(token), 404, 'NotFoundHttpException', SETUP_TOKEN_UNKNOWN);
    expectError(await redeem('A'.repeat(48)), 404, 'NotFoundHttpException', SETUP_TOKEN_UNKNOWN);
    expectError(await redeem('short'), 404, 'NotFoundHttpException', SETUP_TOKEN_UNKNOWN);
  });

  it('one second before its end a token still works (the service clock moved, no sleep)', async () => {
    const minted = Date.now();
    const mintNow = nodeSetupService(panel.ctx, () => minted);
    const { token } = await mintNow.mint(nodeId, { userId: admin.id, apiKeyId: null, ip: null });
    const later = nodeSetupService(panel.ctx, () => minted + NODE_SETUP_TOKEN_MINUTES * 60_000 - 1000);
    const doc = await later.redeem(token, { userId: null, apiKeyId: null, ip: null });
    expect(doc.uuid).toBeTruthy();
    const { token: second } = await mintNow.mint(nodeId, { userId: admin.id, apiKeyId: null, ip: null });
    const after = nodeSetupService(panel.ctx, () => minted + NODE_SETUP_TOKEN_MINUTES * 60_000);
    await expect(after.redeem(second, { userId: null, apiKeyId: null, ip: null })).rejects.toMatchObject({
      status: 410,
    });
  });

  it('API keys cannot mint one (403), nor can non-admins; 401 without credentials; 419 without XSRF', async () => {
    const path = `/api/application/nodes/${nodeId}/setup-token`;
    const before = (await tokenRows()).length;
    const key = await applicationClient(panel, admin, {
      r_nodes: FULL,
      r_allocations: FULL,
      r_locations: FULL,
      r_servers: FULL,
    });
    expectError(await key.post(path), 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
    expectError(await anonymous().post(path), 401, 'AuthenticationException', 'Unauthenticated.');
    const user = await panel.createUser();
    expectError(
      await (await panel.signedIn(user)).post(path),
      403,
      'AccessDeniedHttpException',
      'This account does not have permission to access the API.',
    );
    const noXsrf = await panel.signedIn(admin);
    noXsrf.sendXsrf = false;
    expect((await noXsrf.post(path)).status).toBe(419);
    expect((await session.post('/api/application/nodes/999999/setup-token')).status).toBe(404);
    expect((await tokenRows()).length).toBe(before);
  });

  it(`redemption attempts are throttled per address (${SETUP_ATTEMPTS} a minute)`, async () => {
    const { token } = await mint();
    await panel.ctx.authThrottle.clear('node-setup:127.0.0.1'); // the tests above redeemed too
    try {
      for (let i = 0; i < SETUP_ATTEMPTS; i++) expect((await redeem('x'.repeat(48))).status).toBe(404);
      const limited = await redeem(token);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // The throttled attempt did not use the token up.
      expect((await tokenRows()).some((r) => r.token_hash === sha256Hex(token))).toBe(true);
    } finally {
      await panel.ctx.authThrottle.clear('node-setup:127.0.0.1');
    }
    expect((await redeem(token)).status).toBe(200);
  });

  it('the request log shows the redemption path without the token', async () => {
    let logged = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logged += chunk.toString();
        done();
      },
    });
    const logging = await startTestPanel({}, { log: pino({ level: 'info' }, sink) });
    try {
      const admin2 = await logging.createUser({ admin: true });
      const { nodeId: id } = await insertNode(logging);
      const minted = await (await logging.signedIn(admin2)).post(`/api/application/nodes/${id}/setup-token`);
      const token = minted.body.attributes.token as string;
      expect((await new TestClient(logging.url).get(`/api/remote/node-setup/${token}`)).status).toBe(200);
      expect(logged).toContain('/api/remote/node-setup/[redacted]');
      expect(logged).not.toContain(token);
    } finally {
      await logging.close();
    }
  });
});
