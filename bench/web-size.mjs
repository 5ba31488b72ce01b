// Gzipped bytes of the JavaScript and CSS that a first visit to /auth/login downloads: the entry
// chunk, every chunk it imports statically (modulepreload), the lazily loaded auth area with its
// static imports, and their CSS. Chunks of other areas (account, dashboard) are not counted.
// Builds apps/web first when dist is missing or older than the sources (`--build` forces it).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'apps/web');
const dist = path.join(web, 'dist');
const manifestPath = path.join(dist, '.vite/manifest.json');
const BUDGET = 150 * 1024;
const ROUTE_MODULES = ['src/features/auth/index.ts'];

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const stale =
  !existsSync(manifestPath) ||
  statSync(manifestPath).mtimeMs <
    Math.max(
      newestMtime(path.join(web, 'src')),
      newestMtime(path.join(root, 'packages/shared/src')),
      ...['index.html', 'vite.config.ts'].map((f) => statSync(path.join(web, f)).mtimeMs),
    );
if (process.argv.includes('--build') || stale) {
  const res = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const files = new Set();
function visit(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const dep of chunk.imports ?? []) visit(dep);
}
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entry) throw new Error('no entry chunk in the manifest');
visit(entry);
for (const mod of ROUTE_MODULES) {
  if (!manifest[mod]) throw new Error(`${mod} is not a chunk of its own; update ROUTE_MODULES`);
  visit(mod);
}

let js = 0;
let css = 0;
const rows = [];
for (const file of [...files].sort()) {
  const gz = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
  if (file.endsWith('.css')) css += gz;
  else js += gz;
  rows.push(`  ${file.padEnd(44)} ${(gz / 1024).toFixed(1).padStart(7)} KB`);
}
const total = js + css;
console.log('First visit to /auth/login (gzip -9):');
console.log(rows.join('\n'));
console.log(`  JS ${(js / 1024).toFixed(1)} KB + CSS ${(css / 1024).toFixed(1)} KB`);
console.log(
  `web-size: ${(total / 1024).toFixed(1)} KB gzipped (${total} bytes); budget 150 KB; ratio ${(total / BUDGET).toFixed(2)}`,
);
process.exit(total <= BUDGET ? 0 : 1);
