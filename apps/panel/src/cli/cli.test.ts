import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { bootstrap } from '../bootstrap.ts';
import type { AppContext } from '../context.ts';
import { verifyPassword } from '../lib/passwords.ts';
import { KEY_TYPE } from '../modules/api-keys/api-keys.service.ts';
import { TestClient } from '../test-support/client.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/database.ts';
import { enableTwoFactor } from '../test-support/totp.ts';
import type { TestPanel } from '../test-support/panel.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const MAIN = path.join(ROOT, 'apps/panel/src/cli/main.ts');

let database: TestDatabase;
let dataDir: string;
let ctx: AppContext;
let url: string;
let close: () => Promise<void>;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the panel CLI as an operator would, against the test database. */
function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      [MAIN, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
        timeout: 30_000,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'talon-cli-'));
  // The first command migrates the empty database.
  const migrate = await cli('migrate');
  expect(migrate).toMatchObject({ code: 0, stderr: '' });
  expect(migrate.stdout).toBe('Database is up to date.\n');
  ctx = await bootstrap({
    log: pino({ level: 'silent' }),
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url },
  });
  const app = await buildApp(ctx, { webDist: path.join(dataDir, 'none') });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  close = async () => {
    await app.close();
    await ctx.db.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}, 60_000);
afterAll(async () => {
  await close();
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
    expect(res.stderr).toContain('Usage: npm run panel -- <command> [flags]');
    expect(res.stderr).toContain('api-key:create');
  });
});
