import type { Logger } from 'pino';
import { placeholderValuesOf, resolvePlaceholders, type RemoteServer } from '@talon/shared';
import type { DaemonConfig } from '../config/config.ts';
import { FileError } from '../fs/errors.ts';
import { Jail, type Owner } from '../fs/jail.ts';
import { rewritePlain } from './file.ts';
import { rewriteIni } from './ini.ts';
import { rewriteJson } from './json.ts';
import { rewriteProperties } from './properties.ts';
import { readConfigSpecs, type ConfigFileSpec, type ReplaceRule } from './rules.ts';
import { configLookup, type ConfigLookup } from './values.ts';
import { rewriteXml } from './xml.ts';
import { rewriteYaml } from './yaml.ts';

/** Larger files are not configuration files; they are left alone (and not read into memory). */
export const MAX_CONFIG_FILE_BYTES = 16 * 1024 * 1024;

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
}

export interface FileOutcome {
  file: string;
  parser: string;
  /** `written`: created or changed; `unchanged`: already as the rules want; `failed`: see `error`. */
  result: 'written' | 'unchanged' | 'failed';
  error?: string;
}

type RuleErrorSink = (rule: ReplaceRule, err: Error) => void;

/** The new content of a file for a parser; unknown parsers leave it as it is. */
function transform(
  spec: ConfigFileSpec,
  text: string,
  lookup: ConfigLookup,
  onRuleError: RuleErrorSink,
): string {
  switch (spec.parser) {
    case 'file':
      return rewritePlain(text, spec.replace);
    case 'properties':
      return rewriteProperties(text, spec.replace, lookup);
    case 'ini':
      return rewriteIni(text, spec.replace, lookup);
    case 'yaml':
    case 'yml':
      return rewriteYaml(text, spec.replace, lookup, onRuleError);
    case 'json':
      return rewriteJson(text, spec.replace, lookup, onRuleError);
    case 'xml':
      return rewriteXml(text, spec.replace, lookup, onRuleError);
    default:
      return text;
  }
}

async function readIfExists(jail: Jail, file: string): Promise<string | null> {
  let opened: Awaited<ReturnType<Jail['openRead']>>;
  try {
    opened = await jail.openRead(file);
  } catch (err) {
    if (err instanceof FileError && err.kind === 'not_found') return null;
    throw err;
  }
  try {
    if (opened.stat.size > MAX_CONFIG_FILE_BYTES) {
      throw new Error(`larger than ${MAX_CONFIG_FILE_BYTES} bytes`);
    }
    return (await opened.handle.readFile()).toString('utf8');
  } finally {
    await opened.handle.close();
  }
}

async function rewriteOne(
  jail: Jail,
  spec: ConfigFileSpec,
  lookup: ConfigLookup,
  onRuleError: RuleErrorSink,
): Promise<FileOutcome['result']> {
  const before = await readIfExists(jail, spec.file);
  const text = (before ?? '').replace(/^\uFEFF/, '');
  const after = transform(spec, text, lookup, onRuleError);
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
  const lookup = configLookup(deps.config);

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
      const onRuleError: RuleErrorSink = (rule, err) =>
        log.warn({ file: spec.file, match: rule.match, err: err.message }, 'configuration file rule skipped');
      try {
        const result = await rewriteOne(jail, spec, lookup, onRuleError);
        return { file: spec.file, parser: spec.parser, result };
      } catch (err) {
        const error = err instanceof FileError ? err.message : (err as Error).message;
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
