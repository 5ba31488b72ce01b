// `npm start`: build the web app when it has not been built, then run the panel.
// `npm run dev`: the panel restarting on change, with Vite's dev server for the web app.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dev = process.argv.includes('--dev');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const built = path.join(root, 'apps/web/dist/index.html');
const sources = [path.join(root, 'apps/web/src'), path.join(root, 'packages/shared/src')].filter(existsSync);
const stale = !existsSync(built) || sources.some((d) => newestMtime(d) > statSync(built).mtimeMs);
if (!dev && stale) {
  console.log('Building the web app…');
  const res = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const tsx = path.join(root, 'node_modules/.bin/tsx');
const children = [
  spawn(tsx, [...(dev ? ['watch'] : []), 'apps/panel/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...(dev ? { NODE_ENV: 'development' } : {}) },
  }),
];
if (dev) children.push(spawn('npm', ['run', 'dev', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' }));

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => children.forEach((c) => c.kill(signal)));
}
for (const child of children) {
  child.on('exit', (code) => {
    children.forEach((c) => c !== child && c.kill('SIGTERM'));
    process.exit(code ?? 0);
  });
}
