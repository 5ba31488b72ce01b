// scripts/check-engines.mjs (run by `npm run lint`): every installed package runs on every Node the
// project promises (package.json engines.node), and a package that does not is named.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const script = path.join(repoRoot, 'scripts/check-engines.mjs');
const fixtures: string[] = [];

function checkEngines(root: string) {
  return spawnSync(process.execPath, [script, '--root', root], { cwd: repoRoot, encoding: 'utf8' });
}

/** A project directory with a root manifest, a lock and the listed installed packages. */
function fixture(
  engines: string,
  installed: Record<string, { version: string; engines?: { node: string } }>,
) {
  const root = mkdtempSync(path.join(tmpdir(), 'talon-engines-'));
  fixtures.push(root);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'x', engines: { node: engines } }));
  const packages: Record<string, unknown> = { '': { name: 'x' } };
  for (const [name, manifest] of Object.entries(installed)) {
    packages[`node_modules/${name}`] = { version: manifest.version };
    mkdirSync(path.join(root, 'node_modules', name), { recursive: true });
    writeFileSync(
      path.join(root, 'node_modules', name, 'package.json'),
      JSON.stringify({ name, ...manifest }),
    );
  }
  writeFileSync(path.join(root, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages }));
  return root;
}

afterAll(() => {
  for (const root of fixtures) rmSync(root, { recursive: true, force: true });
});

describe('check-engines', () => {
  it('passes on this repository: no installed package refuses Node 20.19', () => {
    const run = checkEngines(repoRoot);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('every package runs on Node 20.19.0');
    expect(run.status).toBe(0);
  });

  it('fails and names a package whose engines.node excludes the lowest promised Node', () => {
    const root = fixture('>=20.19', {
      cookie: { version: '2.0.2', engines: { node: '>=22' } },
      fine: { version: '1.0.0', engines: { node: '>=18' } },
      '@scope/no-engines': { version: '1.0.0' },
    });
    const run = checkEngines(root);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('cookie@2.0.2 needs Node >=22: refuses 20.19.0');
    expect(run.stderr).not.toContain('fine@');
    expect(run.stderr).not.toContain('no-engines');
  });
});
