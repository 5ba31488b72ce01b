// The server code as plain JavaScript: one esbuild bundle per entry point (panel, panel CLI,
// daemon) into `apps/*/dist/`, so `npm start` runs Node on compiled files instead of loading a
// TypeScript transpiler into the panel and the daemon (faster start, less memory). Our own code
// (apps/*, @talon/shared) is bundled; every npm package stays an ordinary import resolved from
// node_modules at run time (native modules, packages that find their own files on disk).
//
// `node scripts/build-server.mjs`: build. `--if-stale`: only when an output is missing or older
// than a source file. `npm start` and `npm run panel` use `ensureServerBuilt()`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');

export const SERVER_ENTRIES = [
  { source: 'apps/panel/src/main.ts', output: 'apps/panel/dist/main.js' },
  { source: 'apps/panel/src/cli/main.ts', output: 'apps/panel/dist/cli.js' },
  { source: 'apps/daemon/src/main.ts', output: 'apps/daemon/dist/main.js' },
  // The configuration-file parser's worker thread, loaded by the daemon bundle from beside it.
  { source: 'apps/daemon/src/config-files/worker.ts', output: 'apps/daemon/dist/config-files-worker.js' },
];
const SOURCE_DIRS = ['apps/panel/src', 'apps/daemon/src', 'packages/shared/src'];

/** Newest modification time of the files a bundle is made of (tests excluded), and this script's. */
function newestSource() {
  const walk = (dir) => {
    let newest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) newest = Math.max(newest, walk(p));
      else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
    }
    return newest;
  };
  const dirs = SOURCE_DIRS.map((d) => path.join(root, d)).filter(existsSync);
  return Math.max(statSync(fileURLToPath(import.meta.url)).mtimeMs, ...dirs.map(walk));
}

/** True when an output is missing or a source file changed after the oldest output was written. */
export function serverBuildStale() {
  const outputs = SERVER_ENTRIES.map((e) => path.join(root, e.output));
  if (!outputs.every(existsSync)) return true;
  return newestSource() > Math.min(...outputs.map((o) => statSync(o).mtimeMs));
}

/**
 * Bare imports (npm packages, `node:` built-ins) stay imports, except our workspace package
 * @talon/shared, whose TypeScript sources are bundled.
 */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@talon/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * `import.meta.dirname` in a source file means that file's directory (paths to eggs/, the web
 * build, the repository root are relative to it). In the bundle it would be the dist directory, so
 * each use becomes the bundle's directory plus the way back to the source file's directory.
 */
function sourceDirname(outdir) {
  return {
    name: 'source-dirname',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.dirname')) return undefined;
        const back = path.relative(outdir, path.dirname(args.path)).split(path.sep).join('/');
        return {
          contents: text.replaceAll(
            'import.meta.dirname',
            `(import.meta.dirname + ${JSON.stringify(`/${back}`)})`,
          ),
          loader: 'ts',
        };
      });
    },
  };
}

/** Builds every entry (in parallel); resolves when all are written. */
export async function buildServer() {
  const esbuild = await import('esbuild');
  await Promise.all(
    SERVER_ENTRIES.map((entry) => {
      const outfile = path.join(root, entry.output);
      return esbuild.build({
        entryPoints: [path.join(root, entry.source)],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        sourcemap: 'linked',
        logLevel: 'warning',
        plugins: [externalPackages, sourceDirname(path.dirname(outfile))],
      });
    }),
  );
}

/** Builds when stale; says so on stderr (stdout may be a CLI command's output). */
export async function ensureServerBuilt() {
  if (!serverBuildStale()) return;
  process.stderr.write('Building the server code…\n');
  await buildServer();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale')) await ensureServerBuilt();
  else await buildServer();
}
