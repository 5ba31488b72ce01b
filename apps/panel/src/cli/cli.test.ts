import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { verifyPassword } from '../lib/passwords.ts';
import { KEY_TYPE } from '../modules/api-keys/api-keys.service.ts';
import { startTestCli, type TestCli } from '../test-support/cli.ts';
import { TestClient } from '../test-support/client.ts';
import { activityAbout } from '../test-support/fixtures.ts';
import { enableTwoFactor } from '../test-support/totp.ts';
import type { TestPanel } from '../test-support/panel.ts';

let testCli: TestCli;
let ctx: AppContext;
let url: string;
const cli = (...args: string[]) => testCli.run(...args);

beforeAll(async () => {
  // The fixture's first command migrates the empty database.
  testCli = await startTestCli({ serve: true });
  expect(testCli.migrated).toMatchObject({ code: 0, stderr: '', stdout: 'Database is up to date.\n' });
  ctx = testCli.ctx;
  url = testCli.url!;
}, 60_000);
afterAll(async () => {
  await testCli?.close();
});

describe('panel CLI', () => {
  it('user:create makes users; bad input fails with a clear message and creates nothing', async () => {
    const [admin, bad] = await Promise.all([
      cli(
        'user:create',
        '--email',
        'Root@Example.com',
        '--username',
        'rooty',
        '--password',
        'rooty-pass-1',
        '--admin',
        '--name-first',
        'Ro',
        '--name-last',
        'Ot',
      ),
      cli('user:create', '--email', 'not-an-email', '--username', 'bad', '--password', 'short'),
    ]);
    expect(admin.code).toBe(0);
    expect(admin.stdout).toMatch(/^Created user rooty \([0-9a-f-]{36}\) as a root admin\.\n$/u);
    const stored = await ctx.repositories.users.findByLogin('root@example.com');
    expect(stored).toMatchObject({ username: 'rooty', root_admin: 1, name_first: 'Ro', name_last: 'Ot' });
    expect(await verifyPassword(stored!.password, 'rooty-pass-1')).toBe(true);

    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('The email must be a valid email address.');
    expect(bad.stderr).toContain('The password must be at least 8 characters.');
    expect(await ctx.repositories.users.findByLogin('bad')).toBeUndefined();
  });

  it('user:password and user:2fa-disable change the account and end its sessions', async () => {
    const { user } = await ctx.services.users.create({
      email: 'pw@example.com',
      username: 'pwuser',
      password: 'first-pass-1',
    });
    const session = await ctx.services.sessions.create(user.id, { ip: '127.0.0.1' });
    await enableTwoFactor({ ctx } as TestPanel, user);
    const [pw, off] = await Promise.all([
      cli('user:password', '--user', 'pwuser', '--password', 'second-pass-1'),
      cli('user:2fa-disable', '--user', 'pw@example.com'),
    ]);
    expect(pw.code).toBe(0);
    expect(off.code).toBe(0);
    const after = (await ctx.repositories.users.findById(user.id))!;
    expect(await verifyPassword(after.password, 'second-pass-1')).toBe(true);
    expect(await ctx.services.sessions.load(session.token)).toBeNull();

    const disabled = (await ctx.repositories.users.findById(user.id))!;
    expect(disabled).toMatchObject({ use_totp: 0, totp_secret: null });
    expect(await ctx.repositories.recoveryTokens.forUser(user.id)).toHaveLength(0);
    const events = await activityAbout(ctx, { type: 'user', id: user.id });
    expect(events.map((e) => e.event)).toContain('user:two-factor.delete');
  });

  it('api-key:create prints exactly one key that authenticates; application keys need a root admin', async () => {
    await ctx.services.users.create({ email: 'k@example.com', username: 'keyuser', password: 'key-pass-12' });
    const [client, refused] = await Promise.all([
      cli(
        'api-key:create',
        '--user',
        'keyuser',
        '--client',
        '--description',
        'from the CLI',
        '--allowed-ip',
        '127.0.0.0/8',
      ),
      cli('api-key:create', '--user', 'keyuser', '--application'),
    ]);
    expect(client.code).toBe(0);
    expect(client.stdout).toMatch(/^ptlc_[A-Za-z0-9]{43}\n$/u);
    const token = client.stdout.trim();
    expect(token).toHaveLength(48);
    const res = await TestClient.withKey(url, token).get('/api/client/account');
    expect(res.status).toBe(200);
    expect(res.body.attributes.username).toBe('keyuser');
    const [key] = await ctx.services.apiKeys.list(
      (await ctx.repositories.users.findByLogin('keyuser'))!,
      KEY_TYPE.client,
    );
    expect(key).toMatchObject({ memo: 'from the CLI', allowed_ips: '["127.0.0.0/8"]' });

    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('application keys belong to root admins only');
    expect(
      await ctx.services.apiKeys.list(
        (await ctx.repositories.users.findByLogin('keyuser'))!,
        KEY_TYPE.application,
      ),
    ).toEqual([]);
  });

  it('an unknown command exits 2 with the usage', async () => {
    const res = await cli('user:explode');
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('Unknown command "user:explode".');
    expect(res.stderr).toContain('Usage: npm run -s panel -- <command> [options]');
    expect(res.stderr).toContain('api-key:create');
  });
});
