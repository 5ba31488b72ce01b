// `npm start`: build the web app and the server code when missing or stale, then run the compiled
// panel (`apps/panel/dist/main.js`, which runs the compiled daemon).
// `npm run dev`: the panel restarting on change (TypeScript through tsx), with Vite's dev server.
// `--no-build` builds nothing and runs the TypeScript sources through tsx, as `npm run dev` does
// (tests that start the whole thing).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureServerBuilt } from './build-server.mjs';
import { ensureWebBuilt } from './build-web.mjs';

const root = path.resolve(import.meta.dirname, '..');
const dev = process.argv.includes('--dev');
const build = !process.argv.includes('--no-build');

if (!dev && build) {
  const status = ensureWebBuilt();
  if (status !== 0) process.exit(status);
  await ensureServerBuilt();
}

// Node runs the panel itself (the bundle, or the sources with tsx loaded rather than through the tsx
// command): the panel is then this process's direct child, with no wrapper in between that relays
// signals and kills it when it is slow to acknowledge them.
const panel = dev
  ? spawn(path.join(root, 'node_modules/.bin/tsx'), ['watch', 'apps/panel/src/main.ts'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'development' },
    })
  : spawn(
      process.execPath,
      build ? ['apps/panel/dist/main.js'] : ['--import', 'tsx', 'apps/panel/src/main.ts'],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
const children = [panel];
if (dev) children.push(spawn('npm', ['run', 'dev', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' }));

// Ctrl+C sends SIGINT to the whole process group, so the panel (which stops its local daemon
// first) usually has it already; it is passed on once anyway, as SIGTERM, for a signal sent to this
// process alone (the panel ignores every signal after its first). Then this process waits for the
// panel, so the shell gets its prompt back only when everything is gone.
let signalled = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    children.forEach((c) => c.kill('SIGTERM'));
  });
}
for (const child of children) {
  child.on('exit', (code, signal) => {
    children.forEach((c) => c !== child && c.exitCode === null && c.kill('SIGTERM'));
    process.exit(code ?? (signal ? 1 : 0));
  });
}
