import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, firstError, TestClient, type Res } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { enableTwoFactor, totpCode } from '../../test-support/totp.ts';

// CVE-2025-69197: a TOTP code was accepted twice within its window. Codes are single-use per user,
// also when the same code arrives at the same moment at two panels sharing one database.
let panel: TestPanel;
let other: TestPanel;
const PASSWORD = 'hunter2hunter2';
const PARALLEL = 4;

/** A client of `on` from an address of its own (the lockout counts per address). */
const fromNewIp = (on: TestPanel): TestClient => TestClient.fromNewIp(on.url);

beforeAll(async () => {
  panel = await startTestPanel({ TRUSTED_PROXIES: '127.0.0.1' });
  other = await startTestPanel({
    TRUSTED_PROXIES: '127.0.0.1',
    DATABASE_URL: panel.ctx.config.databaseUrl,
    APP_KEY: panel.ctx.config.appKey.toString('hex'),
  });
});
afterAll(async () => {
  await other?.close();
  await panel?.close();
});

describe('TOTP codes are single-use (CVE-2025-69197)', () => {
  it('the same code sent at once to 4 sign-in checkpoints on two panels signs in exactly once', async () => {
    const user = await panel.createUser({ password: PASSWORD });
    const { secret } = await enableTwoFactor(panel, user);
    const pending = [];
    for (let i = 0; i < PARALLEL; i++) {
      const client = fromNewIp(i % 2 === 0 ? panel : other);
      const res = await client.login(user.username, PASSWORD);
      expect(res.status, res.text).toBe(200);
      pending.push({ client, token: res.body.data.confirmation_token as string });
    }
    const code = await totpCode(secret, 30);
    const answers = await Promise.all(
      pending.map(({ client, token }) =>
        client.post('/auth/login/checkpoint', { confirmation_token: token, authentication_code: code }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array<number>(PARALLEL - 1).fill(400)]);
    for (const refused of answers.filter((r) => r.status !== 200)) {
      expectError(refused, 400, 'DisplayException', 'The two-factor authentication token was invalid.');
    }
    const signedIn = await Promise.all(pending.map(({ client }) => client.get('/api/client/account')));
    expect(signedIn.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it('the same code sent twice at once to enable two-factor (one on each panel) enables it once, with one set of recovery tokens', async () => {
    const user = await panel.createUser({ password: PASSWORD });
    const clients = [await panel.signedIn(user), await other.signedIn(user)];
    const setup = await clients[0]!.get('/api/client/account/two-factor');
    const code = await totpCode(setup.body.data.secret as string);
    const answers: Res[] = await Promise.all(
      clients.map((c) => c.post('/api/client/account/two-factor', { code })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    // The loser hears "already enabled" if the winner had finished, else that the code is used up.
    expect([
      'TwoFactorAuthenticationTokenInvalid The provided two-factor authentication token was not valid.',
      'BadRequestHttpException Two-factor authentication is already enabled on this account.',
    ]).toContain(((e) => `${e.code} ${e.detail}`)(firstError(answers.find((r) => r.status === 400)!)));
    // The tokens shown are the ones stored: the loser did not replace them.
    const shown = answers.find((r) => r.status === 200)!.body.attributes.tokens as string[];
    const stored = await panel.ctx.repositories.recoveryTokens.forUser(user.id);
    expect(stored).toHaveLength(10);
    const recovery = fromNewIp(panel);
    const login = await recovery.login(user.username, PASSWORD);
    const res = await recovery.post('/auth/login/checkpoint', {
      confirmation_token: login.body.data.confirmation_token,
      recovery_token: shown[0],
    });
    expect(res.status, res.text).toBe(200);
  });
});
