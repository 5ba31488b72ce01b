// `npm test`: every Vitest project on SQLite, then the browser tests and — when TEST_POSTGRES_URL is
// set (CI sets it) — the database-backed project again on PostgreSQL. Prints one closing line with
// the totals.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'test-output');
mkdirSync(out, { recursive: true });
const extra = process.argv.slice(2);

/**
 * Runs one Vitest invocation. `logFile`: its output goes there instead of the terminal and is
 * printed when it ends, so two runs side by side do not interleave their lines.
 */
function run(label, args, env, logFile) {
  const report = path.join(out, `vitest-${label}.json`);
  if (!logFile) console.log(`\n=== ${label} ===`);
  const child = spawn(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args, ...extra],
    { cwd: root, stdio: logFile ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } },
  );
  if (logFile) {
    const log = createWriteStream(logFile);
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  }
  return new Promise((resolve) => {
    child.on('close', (status) => {
      if (logFile) console.log(`\n=== ${label} ===\n${readFileSync(logFile, 'utf8')}`);
      let passed = 0;
      let failed = 0;
      try {
        const json = JSON.parse(readFileSync(report, 'utf8'));
        passed = json.numPassedTests;
        failed = json.numFailedTests + (status !== 0 && json.numFailedTests === 0 ? 1 : 0);
      } catch {
        failed = 1;
      }
      resolve({ passed, failed, ok: status === 0 });
    });
  });
}

const projects = (...names) => names.flatMap((n) => ['--project', n]);
const runs = [await run('sqlite', projects('shared', 'panel', 'daemon', 'web'), { TEST_DB: 'sqlite' })];

// The browser tests run one file at a time (one panel, one daemon, one Chromium: about one core).
// The PostgreSQL run of the panel suite goes beside them on one worker, so the two together keep
// the machine's two cores busy without fighting over them.
const second = [run('browser', projects('e2e'), { TEST_DB: 'sqlite' })];
if (process.env.TEST_POSTGRES_URL) {
  second.push(
    run('postgres', ['--project', 'panel', '--maxWorkers=1'], { TEST_DB: 'postgres' }, path.join(out, 'postgres.log')),
  );
}
runs.push(...(await Promise.all(second)));

const passed = runs.reduce((n, r) => n + r.passed, 0);
const failed = runs.reduce((n, r) => n + r.failed, 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(runs.every((r) => r.ok) ? 0 : 1);
