import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { enableTwoFactor, totpCode } from '../../test-support/totp.ts';

// A wrong two-factor code and an unknown or already used recovery code are failed sign-ins
// (`auth:fail`) about the account whose password was right, so its owner sees them in their
// account activity; the successful TOTP sign-in stays `auth:checkpoint`, by the user.
let panel: TestPanel;
const PASSWORD = 'hunter2hunter2';

/** A client whose requests come from an address of their own. */
const fromNewIp = (): TestClient => TestClient.fromNewIp(panel.url);

beforeAll(async () => {
  panel = await startTestPanel({ TRUSTED_PROXIES: '127.0.0.1' });
});
afterAll(async () => {
  await panel.close();
});

type Listed = { event: string; properties: Record<string, unknown>; actor: string | null; ip: string | null };

describe('two-factor failures in the activity log', () => {
  it('records a wrong code and a reused recovery code as failures the account owner can read', async () => {
    const user = await panel.createUser({ password: PASSWORD });
    const { secret, tokens } = await enableTwoFactor(panel, user);

    // A recovery code used once, then tried again from elsewhere.
    const first = fromNewIp();
    const pending = (await first.login(user.username, PASSWORD)).body.data.confirmation_token as string;
    const used = await first.post('/auth/login/checkpoint', {
      confirmation_token: pending,
      recovery_token: tokens[0],
    });
    expect(used.status, used.text).toBe(200);

    const attacker = fromNewIp();
    const stolen = (await attacker.login(user.username, PASSWORD)).body.data.confirmation_token as string;
    const reused = await attacker.post('/auth/login/checkpoint', {
      confirmation_token: stolen,
      recovery_token: tokens[0],
    });
    expect(reused.status).toBe(400);
    const code = await totpCode(secret, 30);
    const wrong = await attacker.post('/auth/login/checkpoint', {
      confirmation_token: stolen,
      authentication_code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect((await attacker.get('/api/client/account')).status).toBe(401);

    // The owner signs in with the right code and reads their account's activity.
    const owner = fromNewIp();
    const ownerPending = (await owner.login(user.username, PASSWORD)).body.data.confirmation_token as string;
    const ok = await owner.post('/auth/login/checkpoint', {
      confirmation_token: ownerPending,
      authentication_code: code,
    });
    expect(ok.status, ok.text).toBe(200);

    const res = await owner.get('/api/client/account/activity?per_page=100&include=actor');
    expect(res.status, res.text).toBe(200);
    const listed: Listed[] = (res.body.data as { attributes: Record<string, any> }[]).map(
      ({ attributes: a }) => ({
        event: a.event,
        properties: a.properties,
        actor: a.relationships.actor.attributes?.uuid ?? null,
        ip: a.ip,
      }),
    );
    expect(listed.filter((e) => e.event.startsWith('auth:'))).toEqual([
      { event: 'auth:recovery-token', properties: {}, actor: user.uuid, ip: '198.51.100.1' },
      {
        event: 'auth:fail',
        properties: { username: user.username, two_factor: 'recovery-token' },
        actor: null,
        // Nobody signed in did it: the address is for administrators (reference §3, activity_log).
        ip: null,
      },
      {
        event: 'auth:fail',
        properties: { username: user.username, two_factor: 'code' },
        actor: null,
        ip: null,
      },
      { event: 'auth:checkpoint', properties: {}, actor: user.uuid, ip: '198.51.100.3' },
    ]);
    // The attacker's address is kept for administrators.
    const stored = await panel.ctx.db.db
      .selectFrom('activity_logs')
      .select(['ip', 'properties'])
      .where('event', '=', 'auth:fail')
      .where('properties', 'like', `%${user.username}%`)
      .execute();
    expect(stored.map((r) => r.ip)).toEqual(['198.51.100.2', '198.51.100.2']);
  });

  it('records a wrong confirmation token as a failed code, and an expired sign-in not at all', async () => {
    const user = await panel.createUser({ password: PASSWORD });
    const { secret } = await enableTwoFactor(panel, user);
    const client = fromNewIp();
    await client.login(user.username, PASSWORD);
    const res = await client.post('/auth/login/checkpoint', {
      confirmation_token: 'x'.repeat(64),
      authentication_code: await totpCode(secret, 30),
    });
    expect(res.status).toBe(400);
    // No pending sign-in: there is no account to name.
    const guest = fromNewIp();
    await guest.get('/sanctum/csrf-cookie');
    expect(
      (await guest.post('/auth/login/checkpoint', { confirmation_token: 'a', authentication_code: '1' }))
        .status,
    ).toBe(400);

    const rows = await panel.ctx.db.db
      .selectFrom('activity_logs')
      .select(['event', 'properties', 'actor_id'])
      .where('event', '=', 'auth:fail')
      .where('properties', 'like', `%"${user.username}"%`)
      .execute();
    expect(rows.map((r) => [r.event, JSON.parse(r.properties), r.actor_id])).toEqual([
      ['auth:fail', { username: user.username, two_factor: 'code' }, null],
    ]);
  });
});
