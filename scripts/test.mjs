// `npm test`: every Vitest project on SQLite (browser tests last), then the database-backed project again on PostgreSQL
// when TEST_POSTGRES_URL is set (CI sets it). Prints one closing line with the totals.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'test-output');
mkdirSync(out, { recursive: true });
const extra = process.argv.slice(2);

function run(label, args, env) {
  const report = path.join(out, `vitest-${label}.json`);
  console.log(`\n=== ${label} ===`);
  const res = spawnSync(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args, ...extra],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } },
  );
  let passed = 0;
  let failed = 0;
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed = json.numPassedTests;
    failed = json.numFailedTests + (res.status !== 0 && json.numFailedTests === 0 ? 1 : 0);
  } catch {
    failed = 1;
  }
  return { passed, failed, ok: res.status === 0 };
}

// Browser tests run on their own afterwards: together with the daemon-backed suites they would
// fight over the two cores and time out.
const projects = (...names) => names.flatMap((n) => ['--project', n]);
const runs = [
  run('sqlite', projects('shared', 'panel', 'daemon', 'web'), { TEST_DB: 'sqlite' }),
  run('browser', projects('e2e'), { TEST_DB: 'sqlite' }),
];
if (process.env.TEST_POSTGRES_URL) {
  runs.push(run('postgres', ['--project', 'panel'], { TEST_DB: 'postgres' }));
}
const passed = runs.reduce((n, r) => n + r.passed, 0);
const failed = runs.reduce((n, r) => n + r.failed, 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(runs.every((r) => r.ok) ? 0 : 1);
