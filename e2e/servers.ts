/**
 * Server fixtures for the browser tests, made through the panel's own application API (fast and
 * real): an application key from the CLI, then POST /api/application/servers.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { ROOT, type Panel } from './harness.ts';

export interface AppApi {
  get: <T = unknown>(url: string) => Promise<T>;
  post: <T = unknown>(url: string, body?: unknown) => Promise<T>;
}

export function applicationApi(panel: Panel, adminUsername: string): AppApi {
  const res = spawnSync(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    ['apps/panel/src/cli/main.ts', 'api-key:create', '--user', adminUsername, '--application'],
    { cwd: ROOT, env: panel.env, encoding: 'utf8' },
  );
  if (res.status !== 0) throw new Error(`api-key:create failed:\n${res.stdout}\n${res.stderr}`);
  const key = res.stdout.trim().split('\n').pop()!.trim();
  const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await fetch(panel.url + url, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        Accept: 'application/json',
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url} → ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return { get: (url) => call('GET', url), post: (url, body) => call('POST', url, body) };
}

interface ListOf<T> {
  data: { attributes: T }[];
}

export async function userId(api: AppApi, username: string): Promise<number> {
  const list = await api.get<ListOf<{ id: number; username: string }>>(
    `/api/application/users?filter[username]=${encodeURIComponent(username)}`,
  );
  const user = list.data.find((u) => u.attributes.username === username);
  if (!user) throw new Error(`no user ${username}`);
  return user.attributes.id;
}

export async function eggId(api: AppApi, name: string): Promise<number> {
  const nests = await api.get<
    ListOf<{ relationships?: { eggs?: { data: { attributes: { id: number; name: string } }[] } } }>
  >('/api/application/nests?include=eggs');
  for (const nest of nests.data) {
    const egg = nest.attributes.relationships?.eggs?.data.find((e) => e.attributes.name === name);
    if (egg) return egg.attributes.id;
  }
  throw new Error(`no egg ${name}`);
}

export interface CreatedServer {
  id: number;
  identifier: string;
  uuid: string;
  name: string;
}

export async function createServer(
  api: AppApi,
  options: {
    name: string;
    user: number;
    egg: number;
    skipScripts?: boolean;
    description?: string;
    /** MB; small values let many servers fit on the local node. */
    memory?: number;
    /** defaults: the built-in game server's image, startup and variables */
    image?: string;
    startup?: string;
    environment?: Record<string, string>;
    /** the allocation limit (feature_limits.allocations); default 1 */
    allocations?: number;
    /** the database limit (feature_limits.databases); default 0 */
    databases?: number;
  },
): Promise<CreatedServer> {
  const res = await api.post<{ attributes: CreatedServer }>('/api/application/servers', {
    name: options.name,
    description: options.description ?? '',
    user: options.user,
    egg: options.egg,
    docker_image: options.image ?? 'talon/host-node:20',
    startup: options.startup ?? 'node server.js',
    environment: options.environment ?? { MAX_PLAYERS: '10', MOTD: 'hi', WORLD_NAME: 'world' },
    limits: { memory: options.memory ?? 256, swap: 0, disk: options.memory ?? 512, io: 500, cpu: 100 },
    feature_limits: { databases: options.databases ?? 0, allocations: options.allocations ?? 1, backups: 0 },
    deploy: { locations: [], dedicated_ip: false, port_range: [] },
    skip_scripts: options.skipScripts ?? false,
  });
  return res.attributes;
}

/** Waits until the client API reports the server without a status (installed, not suspended). */
export async function waitInstalled(api: AppApi, id: number, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const server = await api.get<{
      attributes: { status: string | null; container?: { installed?: boolean } };
    }>(`/api/application/servers/${id}`);
    if (server.attributes.status === null) return;
    if (Date.now() > deadline) throw new Error(`server ${id} still ${server.attributes.status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Runs `fn` on the panel's SQLite database (for states the API cannot produce here). */
function withDatabase(panel: Panel, fn: (db: Database.Database) => void): void {
  const db = new Database(path.join(panel.dataDir, 'panel.sqlite'));
  try {
    fn(db);
  } finally {
    db.close();
  }
}

/** Adds a subuser row directly: the panel has no subuser API yet. */
export function addSubuser(panel: Panel, userIdValue: number, serverId: number, permissions: string[]): void {
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
  withDatabase(panel, (db) =>
    db
      .prepare(
        'INSERT INTO subusers (user_id, server_id, permissions, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(userIdValue, serverId, JSON.stringify(permissions), now, now),
  );
}

/** Sets a server's status column: an install or a backup restore in progress, as the panel records it. */
export function setServerStatus(panel: Panel, serverId: number, status: string | null): void {
  withDatabase(panel, (db) => db.prepare('UPDATE servers SET status = ? WHERE id = ?').run(status, serverId));
}

/** Imports an egg file with the panel's CLI, as an operator would. */
export function importEgg(panel: Panel, file: string): void {
  const res = spawnSync(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    ['apps/panel/src/cli/main.ts', 'egg:import', '--file', file],
    { cwd: ROOT, env: panel.env, encoding: 'utf8' },
  );
  if (res.status !== 0) throw new Error(`egg:import failed:\n${res.stdout}\n${res.stderr}`);
}

export async function signIn(page: Page, url: string, username: string, password: string): Promise<void> {
  await page.goto(`${url}/auth/login`);
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`${url}/`);
}

/** Text currently rendered by xterm (its DOM renderer keeps one element per row). */
export function terminalText(page: Page): Promise<string> {
  return page.locator('[data-testid="console-terminal"] .xterm-rows').innerText();
}

/**
 * Waits for the console's status line to read `expected`. When it does not, the error carries what
 * the terminal showed and the end of the panel's (and its local daemon's) log, so a failure in CI
 * says why.
 */
export async function waitForStatus(page: Page, panel: Panel, expected: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let seen = '';
  while (Date.now() < deadline) {
    seen = (await page.getByTestId('server-status').textContent()) ?? '';
    if (seen === expected) return;
    await page.waitForTimeout(200);
  }
  throw new Error(
    `status stayed "${seen}", expected "${expected}"\n--- terminal ---\n${await terminalText(page)}\n` +
      `--- panel log (end) ---\n${panel.output().slice(-4000)}`,
  );
}
