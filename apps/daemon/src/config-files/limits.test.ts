import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack, type WsClient } from '../test-support/harness.ts';

/**
 * CVE-2026-52857 class on the real start path: the files the rewriter parses belong to the server
 * (its owner writes them over SFTP or the game does), and they are parsed on every start. None of
 * them may freeze or crash the daemon; a file the rewriter will not handle is left byte for byte,
 * the console says why, and the server still starts.
 */
const MiB = 1024 * 1024;
const consoleLines = (ws: WsClient) =>
  ws.messages.filter((m) => m.event === 'console output').map((m) => m.args![0]!);

describe('configuration files a server owner crafted (real daemon)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ config: { system: { sftp: { bind_port: 2022 } } } });
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  async function startWith(configs: unknown[], files: Record<string, string>) {
    const uuid = await stack.createInstalled(undefined, { process: { configs } });
    const dir = path.join(stack.config.system.data, uuid);
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    const ws = await stack.ws(uuid);
    ws.send('auth', await stack.token(uuid));
    await ws.waitFor((m) => m.event === 'auth success');
    ws.send('set state', 'start');
    return { uuid, dir, ws };
  }

  async function stop(ws: WsClient) {
    ws.send('set state', 'kill');
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline');
  }

  it('leaves a file over the size cap byte for byte, says why, and starts the server', async () => {
    const big = `motd: ${'x'.repeat(2 * MiB)}\nport: 1\n`;
    const { dir, ws } = await startWith(
      [{ parser: 'yaml', file: 'config.yml', replace: [{ match: 'port', replace_with: '30200' }] }],
      { 'config.yml': big },
    );
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 20_000);
    expect(consoleLines(ws)).toContainEqual(
      expect.stringContaining('config.yml is larger than 1 MiB: it was left as it is'),
    );
    expect(await readFile(path.join(dir, 'config.yml'), 'utf8')).toBe(big);
    await stop(ws);
  });

  it('stops a rewrite that runs past its time budget while the daemon keeps answering', async () => {
    // An egg pattern that backtracks for hours on this value: only the budget can end it.
    const text = `name: ${'a'.repeat(40)}b\nport: 1\n`;
    const { dir, ws } = await startWith(
      [
        {
          parser: 'yaml',
          file: 'config.yml',
          replace: [
            { match: 'name', if_value: 'regex:^(a+)+$', replace_with: 'x' },
            { match: 'port', replace_with: '30201' },
          ],
        },
      ],
      { 'config.yml': text },
    );
    await ws.waitFor((m) => m.event === 'console output' && m.args![0]!.includes('Updating process configuration'));
    const system = await stack.api('GET', '/api/system');
    expect(system.status).toBe(200);
    const budget = (l: string) => l.includes('config.yml took longer than');
    expect(consoleLines(ws).some(budget)).toBe(false); // answered while the rewrite was still running
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 30_000);
    expect(consoleLines(ws)).toContainEqual(
      expect.stringContaining('config.yml took longer than 10 s to rewrite: it was left as it is'),
    );
    expect(await readFile(path.join(dir, 'config.yml'), 'utf8')).toBe(text);
    await stop(ws);
  });

  it('rewrites files the old parsers took hours on, and hands out no node secret', async () => {
    const blanks = ' '.repeat(20_000); // cubic before: the 4,000-space line alone took 48 s
    const slashes = '\\'.repeat(MiB - 100); // quadratic before: 100 KB took 16 s
    const { dir, ws } = await startWith(
      [
        { parser: 'ini', file: 'game.ini', replace: [{ match: 'Net.Port', replace_with: '30202' }] },
        {
          parser: 'properties',
          file: 'server.properties',
          replace: [
            { match: 'server-port', replace_with: '30203' },
            { match: 'sftp', replace_with: '{{config.system.sftp.bind_port}}' },
            { match: 'token', replace_with: '{{config.token}}' },
            { match: 'token-id', replace_with: '{{config.tokenId}}' },
            { match: 'remote', replace_with: '{{config.remote}}' },
            { match: 'data', replace_with: '{{config.system.data}}' },
            { match: 'ssl-key', replace_with: 'k={{config.api.ssl.key}}' },
            { match: 'root', replace_with: '{{ config.system.root_directory }}' },
          ],
        },
      ],
      { 'game.ini': `[Net]\n${blanks}\nPort = 1\n`, 'server.properties': `${slashes}x\nserver-port=1\n` },
    );
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 20_000);
    expect(await readFile(path.join(dir, 'game.ini'), 'utf8')).toBe(`[Net]\n${blanks}\nPort = 30202\n`);
    const props = await readFile(path.join(dir, 'server.properties'), 'utf8');
    expect(props.split('\n').slice(1)).toEqual([
      'server-port=30203',
      'sftp=2022',
      'token=',
      'token-id=',
      'remote=',
      'data=',
      'ssl-key=',
      'root=',
      '',
    ]);
    expect(props).not.toContain(stack.config.token);
    expect(props).not.toContain(stack.config.system.data);
    await stop(ws);
  });
});
