// `npm run bench`: every benchmark, one after another (each prints its baseline and ratio).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv[2];
const benches = [
  ['api-account', ['node_modules/.bin/tsx', 'bench/api-account.ts']],
  ['web-size', ['node', 'bench/web-size.mjs']],
  ['console-fanout', ['node_modules/.bin/tsx', 'bench/console-fanout.ts']],
  ['resources', ['node_modules/.bin/tsx', 'bench/resources.ts']],
  ['server-list', ['node_modules/.bin/tsx', 'bench/server-list.ts']],
  ['daemon-rss', ['node_modules/.bin/tsx', 'bench/daemon-rss.ts']],
  ['startup', ['node', 'bench/startup.mjs']],
  ['console-browser', ['node_modules/.bin/tsx', 'bench/console-browser.ts']],
  ['backup', ['node_modules/.bin/tsx', 'bench/backup.ts']],
  ['schedules', ['node_modules/.bin/tsx', 'bench/schedules.ts']],
  ['config-files', ['node_modules/.bin/tsx', 'bench/config-files.ts']],
  ['runtime', ['node_modules/.bin/tsx', 'bench/runtime.ts']],
].filter(([name, cmd]) => (!only || name === only) && existsSync(path.join(root, cmd[1])));

let failed = 0;
for (const [name, [bin, ...args]] of benches) {
  console.log(`\n### ${name}`);
  const res = spawnSync(bin, args, { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
