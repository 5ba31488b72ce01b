import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { nodeSetupPath } from '@talon/shared/admin/node-wire';
import { ConfigError, configPathFromArgs, parseConfig } from './config/config.ts';
import { httpRequest } from './panel/http-request.ts';

export const CONFIGURE_USAGE = `Usage: npm run -s daemon -- configure --panel-url URL --token TOKEN [--config PATH]

Fetches this node's configuration from the panel with a setup token (made on the node's page of
the panel's admin area; it works once, for 15 minutes) and writes the daemon's configuration file
(mode 0600, it holds the node's secret). Settings of an existing file that the panel does not
manage (directories, runtime options) are kept.

Options:
  --panel-url URL   the panel's address, e.g. https://panel.example.com
  --token TOKEN     the setup token
  --config PATH     the file to write (default: $TALON_DAEMON_CONFIG or /etc/talon/daemon.json)
  --help            this text

Example:
  npm run -s daemon -- configure --panel-url https://panel.example.com --token Ab12…`;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `from` over `into`: objects merged key by key, anything else replaced. */
function merged(into: Json, from: Json): Json {
  const out: Json = { ...into };
  for (const [k, v] of Object.entries(from)) out[k] = isObject(v) && isObject(out[k]) ? merged(out[k], v) : v;
  return out;
}

/**
 * The settings the panel manages (its node configuration document): only these are taken from its
 * answer. The node's runtime confinement, directories and origins stay the operator's, so neither
 * a compromised panel nor a tampered plain-http answer can, say, turn bubblewrap off here.
 */
const PANEL_MANAGED = ['debug', 'uuid', 'token_id', 'token', 'api', 'allowed_mounts', 'remote'];
const PANEL_MANAGED_SYSTEM = ['data', 'sftp'];

function panelManaged(doc: Json): Json {
  const out: Json = Object.fromEntries(Object.entries(doc).filter(([k]) => PANEL_MANAGED.includes(k)));
  if (isObject(doc.system)) {
    out.system = Object.fromEntries(
      Object.entries(doc.system).filter(([k]) => PANEL_MANAGED_SYSTEM.includes(k)),
    );
  }
  return out;
}

/** The existing file's settings, or nothing when there is none; an unreadable file stops the command. */
function existingSettings(file: string): Json | null {
  if (!existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(
      `${file} exists but is not a JSON configuration (${(e as Error).message}); move it away first`,
    );
  }
  if (!isObject(raw)) throw new ConfigError(`${file} exists but is not a JSON object; move it away first`);
  return raw;
}

/** The panel's refusal in words: its error detail, else the status. */
function refusal(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: { detail?: string }[] };
    const detail = body.errors?.[0]?.detail;
    if (detail) return `the panel refused the token (HTTP ${status}): ${detail}`;
  } catch {
    // not JSON: say the status
  }
  return `the panel answered HTTP ${status} instead of the configuration; is --panel-url the panel's address?`;
}

async function fetchConfiguration(panelUrl: string, token: string): Promise<Json> {
  const url = `${panelUrl}${nodeSetupPath(token)}`;
  let answer;
  try {
    answer = await httpRequest(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: 15_000,
    });
  } catch (e) {
    throw new ConfigError(`could not reach the panel at ${panelUrl}: ${(e as Error).message}`);
  }
  if (answer.status !== 200) throw new ConfigError(refusal(answer.status, answer.text));
  let doc: unknown;
  try {
    doc = JSON.parse(answer.text);
  } catch {
    throw new ConfigError('the panel answered something that is not JSON');
  }
  if (!isObject(doc)) throw new ConfigError('the panel answered something that is not a configuration');
  return doc;
}

/**
 * Writes next to the target, then renames: a crash never leaves half a configuration, and a link
 * at the target is replaced, never followed. The temporary name is random and created exclusively
 * (O_EXCL refuses an existing name, a planted link included), so nothing can redirect the write.
 */
function writePrivate(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    try {
      fchmodSync(fd, 0o600); // the umask may have taken bits away; never added any
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

/** The panel's address without a trailing slash, or null unless it is a plain http(s) URL. */
function panelBase(text: string): string | null {
  // Checked as typed too: the URL parser would read `http:/host` as `http://host`.
  if (!/^https?:\/\/[^/]/u.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // A user name, query or fragment has no place in the panel's address: the path is appended.
  if (url.username || url.password || url.search || url.hash || text.includes('?') || text.includes('#'))
    return null;
  return `${url.origin}${url.pathname.replace(/\/+$/u, '')}`;
}

/**
 * `configure`: redeem a setup token at the panel and write the daemon's configuration. Returns the
 * exit code; messages go to stdout (what was done) and stderr (why not).
 */
export async function configure(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'panel-url': { type: 'string' },
        token: { type: 'string' },
        config: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    console.error(`configure: ${(e as Error).message}\n\n${CONFIGURE_USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(CONFIGURE_USAGE);
    return 0;
  }
  const panelUrl = panelBase(values['panel-url'] ?? '');
  const token = values.token ?? '';
  if (panelUrl === null || token === '') {
    console.error(
      `configure: --panel-url (http:// or https://) and --token are required\n\n${CONFIGURE_USAGE}`,
    );
    return 2;
  }
  const file = path.resolve(values.config ?? configPathFromArgs([], env));
  try {
    const existing = existingSettings(file);
    const doc = merged(existing ?? {}, panelManaged(await fetchConfiguration(panelUrl, token)));
    const config = parseConfig(doc); // refuse to write what the daemon could not start with
    writePrivate(file, `${JSON.stringify(doc, null, 2)}\n`);
    const how = existing ? 'Updated' : 'Wrote';
    console.log(
      [
        `${how} ${file} (mode 0600) for node ${config.uuid || '(no uuid)'}:`,
        `  panel        ${config.remote}`,
        `  API          ${config.api.ssl.enabled ? 'https' : 'http'} on ${config.api.host}:${config.api.port}`,
        `  SFTP         port ${config.system.sftp.bind_port}`,
        `  server data  ${config.system.data}`,
        existing ? '  Settings the panel does not manage were kept from the existing file.' : '',
        `Start the daemon: npm run daemon -- --config ${file}`,
      ]
        .filter(Boolean)
        .join('\n'),
    );
    return 0;
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`configure: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
