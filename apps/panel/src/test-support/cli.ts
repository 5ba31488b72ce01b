import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../app.ts';
import { bootstrap } from '../bootstrap.ts';
import type { AppContext } from '../context.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const MAIN = path.join(ROOT, 'apps/panel/src/cli/main.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface TestCli {
  /** Runs `npm run panel -- <args>` as an operator would (a new process), on the test database. */
  run: (...args: string[]) => Promise<CliRun>;
  /** The same database and data directory, in this process, to look at what a command did. */
  ctx: AppContext;
  database: TestDatabase;
  dataDir: string;
  /** A panel serving that database over HTTP, when asked for with `serve`. */
  url: string | null;
  /** What the first command (`migrate`, on the empty database) printed. */
  migrated: CliRun;
  close: () => Promise<void>;
}

/**
 * The panel CLI on a fresh database and data directory: `migrate` runs first as a real command
 * (so the CLI itself creates the schema), then a context on the same database is opened for the
 * test's own checks. `serve: true` also starts the panel's HTTP app on it (to use a printed key).
 */
export async function startTestCli(opts: { serve?: boolean; prefix?: string } = {}): Promise<TestCli> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), opts.prefix ?? 'talon-cli-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: database.url };
  const run = (...args: string[]) =>
    new Promise<CliRun>((resolve) => {
      execFile(
        TSX,
        [MAIN, ...args],
        { cwd: ROOT, env: { ...process.env, ...env, LOG_LEVEL: 'warn' }, timeout: 60_000 },
        (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });
  const migrated = await run('migrate');
  if (migrated.code !== 0) throw new Error(`panel CLI migrate failed:\n${migrated.stderr}`);
  const ctx = await bootstrap({ log: pino({ level: 'silent' }), env });
  let url: string | null = null;
  let stopServing = async () => {};
  if (opts.serve) {
    const app = await buildApp(ctx, { webDist: path.join(dataDir, 'no-web-build') });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    stopServing = () => app.close();
  }
  return {
    run,
    ctx,
    database,
    dataDir,
    url,
    migrated,
    close: async () => {
      await stopServing();
      await ctx.db.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
