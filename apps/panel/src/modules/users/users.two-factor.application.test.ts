import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, TestClient } from '../../test-support/client.ts';
import { activityAbout, applicationClient } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// DELETE /api/application/users/{id}/two-factor (extension, docs/api.md "Users").
let panel: TestPanel;
let api: TestClient;

/** A user with two-factor on and two recovery tokens, written straight to the database. */
async function userWithTwoFactor(): Promise<User> {
  const user = await panel.createUser();
  const db = panel.ctx.db.db;
  const at = new Date().toISOString();
  await db
    .updateTable('users')
    .set({ use_totp: 1, totp_secret: 'encrypted-secret', totp_authenticated_at: at, totp_last_step: 42 })
    .where('id', '=', user.id)
    .execute();
  await db
    .insertInto('recovery_tokens')
    .values([
      { user_id: user.id, token: 'hash-1', created_at: at },
      { user_id: user.id, token: 'hash-2', created_at: at },
    ])
    .execute();
  return user;
}

async function stateOf(userId: number) {
  const db = panel.ctx.db.db;
  const user = await db
    .selectFrom('users')
    .select(['use_totp', 'totp_secret', 'totp_authenticated_at', 'totp_last_step'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const tokens = await db.selectFrom('recovery_tokens').select('id').where('user_id', '=', userId).execute();
  return { ...user, tokens: tokens.length };
}

beforeAll(async () => {
  panel = await startTestPanel();
  api = await applicationClient(panel);
});
afterAll(async () => {
  await panel.close();
});

describe('DELETE /api/application/users/{id}/two-factor', () => {
  it('turns two-factor off, deletes the secret and recovery tokens, and records it (204)', async () => {
    const user = await userWithTwoFactor();
    const other = await userWithTwoFactor();
    const res = await api.delete(`/api/application/users/${user.id}/two-factor`);
    expect(res.status, res.text).toBe(204);
    expect(await stateOf(user.id)).toEqual({
      use_totp: 0,
      totp_secret: null,
      totp_authenticated_at: null,
      totp_last_step: null,
      tokens: 0,
    });
    expect((await api.get(`/api/application/users/${user.id}`)).body.attributes['2fa']).toBe(false);
    // Nobody else is touched.
    expect(await stateOf(other.id)).toMatchObject({ use_totp: 1, tokens: 2 });
    const events = await activityAbout(panel.ctx, { type: 'user', id: user.id });
    expect(events.map((e) => [e.event, e.properties])).toEqual([
      ['user:two-factor.delete', { by_administrator: true, was_enabled: true }],
    ]);
    // Again, for a user without two-factor: still 204.
    expect((await api.delete(`/api/application/users/${user.id}/two-factor`)).status).toBe(204);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await api.delete('/api/application/users/99999/two-factor');
    expectError(
      res,
      404,
      'NotFoundHttpException',
      'The requested resource could not be found on the server.',
    );
  });

  it('works for a root admin session with the XSRF header, not without it', async () => {
    const user = await userWithTwoFactor();
    const admin = await panel.createUser({ admin: true });
    const session = await panel.signedIn(admin);
    session.sendXsrf = false;
    expect((await session.delete(`/api/application/users/${user.id}/two-factor`)).status).toBe(419);
    expect(await stateOf(user.id)).toMatchObject({ use_totp: 1, tokens: 2 });
    session.sendXsrf = true;
    expect((await session.delete(`/api/application/users/${user.id}/two-factor`)).status).toBe(204);
    expect(await stateOf(user.id)).toMatchObject({ use_totp: 0, tokens: 0 });
  });

  it('refuses no credentials (401), non-admin sessions, keys without r_users and read-only keys (403), changing nothing', async () => {
    const user = await userWithTwoFactor();
    const url = `/api/application/users/${user.id}/two-factor`;
    expectError(
      await new TestClient(panel.url).delete(url),
      401,
      'AuthenticationException',
      'Unauthenticated.',
    );
    const session = await panel.signedIn(await panel.createUser());
    expectError(
      await session.delete(url),
      403,
      'AccessDeniedHttpException',
      'This account does not have permission to access the API.',
    );
    for (const client of [
      await applicationClient(panel, { r_servers: 3 }),
      await applicationClient(panel, { r_users: 1 }),
    ])
      expectError(await client.delete(url), 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
    expect(await stateOf(user.id)).toMatchObject({ use_totp: 1, totp_secret: 'encrypted-secret', tokens: 2 });
  });
});
