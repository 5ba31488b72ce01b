// The built-in eggs in /eggs really work: they import, their install scripts write the programs,
// and those programs print the egg's done line, obey console commands and stop cleanly.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEgg, type NormalizedEgg } from './index.ts';

const EGGS = join(import.meta.dirname, '../../../../eggs');

function load(file: string): NormalizedEgg {
  const result = parseEgg(readFileSync(join(EGGS, file), 'utf8'));
  if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.errors)}`);
  return result.egg;
}

const dirs: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs the install script with bash, its one `/mnt/server` pointed at a temporary directory. */
function install(egg: NormalizedEgg, env: Record<string, string> = {}, dir?: string): string {
  const serverDir = dir ?? mkdtempSync(join(tmpdir(), 'talon-egg-'));
  if (!dir) dirs.push(serverDir);
  expect(egg.install.script.split('/mnt/server').length - 1).toBe(1);
  const scriptDir = mkdtempSync(join(tmpdir(), 'talon-install-'));
  dirs.push(scriptDir);
  writeFileSync(join(scriptDir, 'install.sh'), egg.install.script.replace('/mnt/server', serverDir));
  // stdin from /dev/null: with a socket there, bash would read ~/.bashrc (its remote-shell heuristic)
  const result = spawnSync(egg.install.entrypoint, [join(scriptDir, 'install.sh')], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return serverDir;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts the egg's startup command (plain `node …`) with {{VAR}} filled from env. */
function start(egg: NormalizedEgg, cwd: string, env: Record<string, string>) {
  const command = egg.startup.replace(/\{\{(\w+)\}\}/gu, (_, name: string) => env[name] ?? '');
  const [program, ...args] = command.split(/\s+/u).filter(Boolean);
  expect(program).toBe('node');
  const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH, ...env } });
  children.push(child);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const waitFor = (text: string, ms = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${text}" in:\n${output}`)), ms);
      const check = () => {
        if (output.includes(text)) {
          clearTimeout(timer);
          child.stdout.off('data', check);
          resolve();
        }
      };
      child.stdout.on('data', check);
      check();
    });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, waitFor, exited, output: () => output };
}

describe('built-in eggs', () => {
  it('every file in eggs/ imports', () => {
    const files = readdirSync(EGGS).filter((f) => f.endsWith('.json'));
    expect(files.sort()).toEqual(['node-game-server.json', 'node-generic-app.json']);
    for (const file of files) expect(load(file).dockerImages.length).toBe(1);
  });

  describe('Node.js Game Server', () => {
    const egg = load('node-game-server.json');
    const done = egg.config.startup.done[0]!;

    it('prints the done line, echoes say, and stops with exit code 0 on the stop command', async () => {
      const dir = install(egg);
      const port = await freePort();
      const server = start(egg, dir, {
        SERVER_PORT: String(port),
        MAX_PLAYERS: '5',
        MOTD: 'hello',
        WORLD_NAME: 'w1',
      });
      await server.waitFor('Server starting...');
      await server.waitFor(done);
      expect(server.output()).toMatch(/Done \(\d+\.\d\ds\)! For help, type "help"/u);
      server.child.stdin.write('say hi\n');
      await server.waitFor('[Server] hi');
      server.child.stdin.write(`${egg.config.stop}\n`);
      expect(await server.exited).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'w1.json'), 'utf8'))).toMatchObject({ messages: 1 });
    });

    it('saves and exits 0 on SIGINT, and loads the saved world next time', async () => {
      const dir = install(egg);
      const env = { SERVER_PORT: String(await freePort()), MAX_PLAYERS: '5', MOTD: 'm', WORLD_NAME: 'w' };
      const first = start(egg, dir, env);
      await first.waitFor(done);
      first.child.kill('SIGINT');
      expect(await first.exited).toBe(0);
      expect(first.output()).toContain('Saved the world to w.json');
      const second = start(egg, dir, env);
      await second.waitFor(done);
      expect(second.output()).toContain('Loaded w.json');
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    });

    it('greets players with the MOTD, relays chat and turns players away beyond MAX_PLAYERS', async () => {
      const dir = install(egg);
      const port = await freePort();
      const server = start(egg, dir, {
        SERVER_PORT: String(port),
        MAX_PLAYERS: '1',
        MOTD: 'Hi there',
        WORLD_NAME: 'w',
      });
      await server.waitFor(done);
      const received = (socket: ReturnType<typeof createConnection>) => {
        let text = '';
        socket.setEncoding('utf8').on('data', (d: string) => (text += d));
        return () => text;
      };
      const alice = createConnection(port, '127.0.0.1');
      const aliceText = received(alice);
      alice.write('alice\n');
      await server.waitFor('alice joined the game');
      expect(aliceText()).toContain('Hi there');
      alice.write('gg\n');
      await server.waitFor('<alice> gg');
      const bob = createConnection(port, '127.0.0.1');
      const bobText = received(bob);
      await new Promise((resolve) => bob.on('close', resolve));
      expect(bobText()).toContain('Server is full (1 players)');
      server.child.stdin.write('list\n');
      await server.waitFor('There are 1 of a max of 1 players online: alice');
      server.child.stdin.write('stop\n');
      expect(await server.exited).toBe(0);
      alice.destroy();
    });
  });

  describe('Generic Node.js App', () => {
    const egg = load('node-generic-app.json');

    it('installs a hello-world app that serves HTTP and exits 0 on ^C (SIGINT)', async () => {
      const dir = install(egg, { MAIN_FILE: 'index.js' });
      const port = await freePort();
      const app = start(egg, dir, { SERVER_PORT: String(port), MAIN_FILE: 'index.js', NODE_ARGS: '' });
      await app.waitFor(egg.config.startup.done[0]!);
      const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      expect(body).toBe('Hello from Talon!\n');
      expect(egg.config.stop).toBe('^C');
      app.child.kill('SIGINT');
      expect(await app.exited).toBe(0);
    });

    it('keeps an existing main file when reinstalled', () => {
      const dir = install(egg, { MAIN_FILE: 'app/main.js' });
      expect(existsSync(join(dir, 'app/main.js'))).toBe(true);
      writeFileSync(join(dir, 'app/main.js'), 'console.log("mine")\n');
      install(egg, { MAIN_FILE: 'app/main.js' }, dir);
      expect(readFileSync(join(dir, 'app/main.js'), 'utf8')).toBe('console.log("mine")\n');
    });
  });
});
