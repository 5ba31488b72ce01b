// `node scripts/check-engines.mjs [--root DIR]`: fails when an installed package's `engines.node`
// excludes a Node version the project promises to run on (the lowest one root package.json's
// `engines.node` allows, and the Node running this check). Run by `npm run lint`, so a dependency
// bump that quietly drops Node 20 is caught even where `npm install` only warns (.npmrc's
// engine-strict makes `npm ci` refuse it too, but only on the Node that CI happens to run).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

/** Node versions every dependency must accept. */
export function promisedNodeVersions(rootManifest, runningNode = process.version) {
  const range = rootManifest.engines?.node;
  if (!range) throw new Error('package.json declares no engines.node');
  const lowest = semver.minVersion(range);
  if (!lowest) throw new Error(`package.json engines.node "${range}" matches no version`);
  return [...new Set([lowest.version, semver.clean(runningNode)])];
}

/**
 * Every package in package-lock.json whose engines.node refuses one of `nodeVersions`. The installed
 * package.json wins over the lock's copy (the lock may predate a manual install); optional
 * packages for other platforms are not installed and are judged by the lock alone.
 */
export function engineConflicts(root, nodeVersions) {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const conflicts = [];
  for (const [where, entry] of Object.entries(lock.packages ?? {})) {
    if (where === '' || entry.link || !where.includes('node_modules/')) continue;
    const installed = path.join(root, where, 'package.json');
    const manifest = existsSync(installed) ? JSON.parse(readFileSync(installed, 'utf8')) : entry;
    const range = manifest.engines?.node;
    if (typeof range !== 'string') continue;
    const refused = nodeVersions.filter((version) => !semver.satisfies(version, range));
    if (refused.length > 0) {
      conflicts.push({
        name: where.slice(where.lastIndexOf('node_modules/') + 13),
        version: manifest.version,
        range,
        refused,
      });
    }
  }
  return conflicts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rootFlag = process.argv.indexOf('--root');
  const root =
    rootFlag > 0 ? path.resolve(process.argv[rootFlag + 1]) : path.resolve(import.meta.dirname, '..');
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const versions = promisedNodeVersions(manifest);
  const conflicts = engineConflicts(root, versions);
  for (const c of conflicts) {
    console.error(`${c.name}@${c.version} needs Node ${c.range}: refuses ${c.refused.join(', ')}`);
  }
  if (conflicts.length > 0) {
    console.error(
      `check-engines: ${conflicts.length} package(s) do not run on every Node this project supports.`,
    );
    process.exit(1);
  }
  console.log(`check-engines: every package runs on Node ${versions.join(' and ')}.`);
}
