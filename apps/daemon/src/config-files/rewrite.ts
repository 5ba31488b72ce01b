import type { Logger } from 'pino';
import { placeholderValuesOf, resolvePlaceholders, type RemoteServer } from '@talon/shared';
import type { DaemonConfig } from '../config/config.ts';
import { FileError } from '../fs/errors.ts';
import { Jail, type Owner } from '../fs/jail.ts';
import { sharedParserPool, type ParserPool } from './pool.ts';
import { readConfigSpecs, type ConfigFileSpec } from './rules.ts';
import { exposedConfigValues, type ConfigValues } from './values.ts';

/**
 * Larger files are left as they are, unread (CVE-2026-52857 class: the server's owner writes these
 * files; configuration files are kilobytes, and parsing costs many times a file's size in memory).
 */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

export interface ConfigFileTarget {
  uuid: string;
  /** The server root: every path is resolved below it through the jail. */
  dir: string;
  /** `settings`, when given, resolves egg placeholders the panel left in the rules (see below). */
  config: Pick<RemoteServer, 'process_configuration'> & Partial<Pick<RemoteServer, 'settings'>>;
}

export interface RewriteDeps {
  config: DaemonConfig;
  log: Logger;
  /** Owner of created files and directories (the server user when the daemon runs as root). */
  owner: Owner | null;
  /** A line in the server's console (why a file was left as it is). */
  notice?: (text: string) => void;
  /** Where files are parsed; the daemon's shared pool unless given. */
  parsers?: ParserPool;
}

export interface FileOutcome {
  file: string;
  parser: string;
  /** `written`: created or changed; `unchanged`: already as the rules want; `failed`: see `error`. */
  result: 'written' | 'unchanged' | 'failed';
  error?: string;
}

type RuleErrorSink = (match: string, message: string) => void;

/** A file the rewriter will not touch, and the console line saying why. */
class LeftAsIs extends Error {}

async function readIfExists(jail: Jail, file: string): Promise<string | null> {
  let opened: Awaited<ReturnType<Jail['openRead']>>;
  try {
    opened = await jail.openRead(file);
  } catch (err) {
    if (err instanceof FileError && err.kind === 'not_found') return null;
    throw err;
  }
  const tooLarge = new LeftAsIs(`${file} is larger than 1 MiB: it was left as it is`);
  try {
    if (opened.stat.size > MAX_CONFIG_FILE_BYTES) throw tooLarge;
    // Read by the descriptor, at most one byte past the cap: the file may grow after the stat.
    const buf = Buffer.alloc(MAX_CONFIG_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await opened.handle.read(buf, length, buf.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_CONFIG_FILE_BYTES) throw tooLarge;
    }
    return buf.toString('utf8', 0, length);
  } finally {
    await opened.handle.close();
  }
}

async function rewriteOne(
  jail: Jail,
  spec: ConfigFileSpec,
  values: ConfigValues,
  parsers: ParserPool,
  onRuleError: RuleErrorSink,
): Promise<FileOutcome['result']> {
  const before = await readIfExists(jail, spec.file);
  const text = (before ?? '').replace(/^\uFEFF/, '');
  const outcome = await parsers.run({ parser: spec.parser, replace: spec.replace, text, values });
  if (!outcome.ok) {
    if (!('limit' in outcome)) throw new Error(outcome.message);
    const seconds = parsers.limits.budgetMs / 1000;
    const heapMb = parsers.limits.heapMb;
    throw new LeftAsIs(
      outcome.limit === 'budget'
        ? `${spec.file} took longer than ${seconds} s to rewrite: it was left as it is`
        : `${spec.file} needed more than ${heapMb} MiB to rewrite: it was left as it is`,
    );
  }
  for (const e of outcome.ruleErrors) onRuleError(e.match, e.message);
  const after = outcome.text;
  if (before !== null && after === before) return 'unchanged';
  await jail.writeFile(spec.file, Buffer.from(after, 'utf8'));
  return 'written';
}

/**
 * `{{server.…}}` / `{{env.…}}` placeholders of either panel's spelling (the incumbent's
 * `{{server.build.default.port}}`, Pelican's `{{server.allocations.default.port}}`…) that reach the
 * daemon unresolved get the server's values; `{{config.…}}` stays for the parsers.
 */
function withServerValues(
  specs: ConfigFileSpec[],
  settings: RemoteServer['settings'] | undefined,
  onUnknown: (placeholder: string) => void,
): ConfigFileSpec[] {
  if (!settings) return specs;
  const values = placeholderValuesOf(settings);
  return specs.map((spec) => ({
    ...spec,
    replace: spec.replace.map((rule) =>
      typeof rule.replaceWith === 'string'
        ? { ...rule, replaceWith: resolvePlaceholders(rule.replaceWith, values, onUnknown) }
        : rule,
    ),
  }));
}

/**
 * Rewrite the egg's configuration files of a server before a start (Wings protocol §6.5), from
 * `process_configuration.configs`. Every path goes through the server's file jail (a path leading
 * outside the server root is refused); a missing file is created with its parents; files are
 * handled in parallel (rules for the same file one after the other). Errors are logged and
 * returned, never thrown: they must not block the start.
 */
export async function rewriteConfigFiles(
  server: ConfigFileTarget,
  deps: RewriteDeps,
): Promise<FileOutcome[]> {
  const log = deps.log.child({ server: server.uuid });
  const read = readConfigSpecs(server.config.process_configuration.configs);
  for (const s of read.skipped) log.warn({ reason: s }, 'configuration file entry ignored');
  const specs = withServerValues(read.specs, server.config.settings, (placeholder) =>
    log.warn({ placeholder }, 'unknown placeholder in a configuration file rule'),
  );
  if (specs.length === 0) return [];
  const jail = new Jail(server.dir, deps.owner);
  const values = exposedConfigValues(deps.config);
  const parsers = deps.parsers ?? sharedParserPool();

  // Entries naming the same file run in order, so they cannot overwrite each other's changes.
  const chains = new Map<string, Promise<unknown>>();
  const outcomes = specs.map((spec) => {
    let key = spec.file;
    try {
      key = jail.parts(spec.file).join('/');
    } catch {
      // refused below, with the same error
    }
    const run = async (): Promise<FileOutcome> => {
      const onRuleError: RuleErrorSink = (match, message) =>
        log.warn({ file: spec.file, match, err: message }, 'configuration file rule skipped');
      try {
        const result = await rewriteOne(jail, spec, values, parsers, onRuleError);
        return { file: spec.file, parser: spec.parser, result };
      } catch (err) {
        const error = (err as Error).message;
        if (err instanceof LeftAsIs) deps.notice?.(error);
        log.warn({ file: spec.file, parser: spec.parser, err: error }, 'configuration file not updated');
        return { file: spec.file, parser: spec.parser, result: 'failed', error };
      }
    };
    const p = (chains.get(key) ?? Promise.resolve()).then(run);
    chains.set(key, p);
    return p;
  });
  return Promise.all(outcomes);
}
