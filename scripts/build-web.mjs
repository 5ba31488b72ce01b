// The web app's production build (`apps/web/dist`), made only when it is missing or older than what
// it is built from. `npm start`, the browser tests and the compiled-panel test share this rule.
//
// `node scripts/build-web.mjs`: build when stale (exit status of the build, 0 when nothing to do).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'apps/web');
const builtIndex = path.join(web, 'dist/index.html');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** True when apps/web/dist is missing or older than the sources, the shared package or the config. */
export function webBuildIsStale() {
  if (!existsSync(builtIndex)) return true;
  const sources = Math.max(
    newest(path.join(web, 'src')),
    newest(path.join(root, 'packages/shared/src')),
    statSync(path.join(web, 'index.html')).mtimeMs,
    statSync(path.join(web, 'vite.config.ts')).mtimeMs,
  );
  return statSync(builtIndex).mtimeMs < sources;
}

/**
 * Builds the web app when stale; returns the build's exit status (0 when there was nothing to do).
 * NODE_ENV is production whatever the caller's (Vitest sets `test`, which would bundle React's
 * development build).
 */
export function ensureWebBuilt({ quiet = false } = {}) {
  if (!webBuildIsStale()) return 0;
  if (!quiet) console.log('Building the web app…');
  const res = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    cwd: root,
    stdio: quiet ? 'pipe' : 'inherit',
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (res.status !== 0 && quiet) process.stderr.write(`${res.stdout ?? ''}${res.stderr ?? ''}`);
  return res.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(ensureWebBuilt());
