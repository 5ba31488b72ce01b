import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_SCRIPT } from '../test-support/game.ts';
import { startStack, type Stack } from '../test-support/harness.ts';

// The real start path: create → install (writes server.properties) → start rewrites it → process.
describe('configuration files on start (real processes)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it('rewrites server.properties before the process starts, with notices in Wings order', async () => {
    const uuid = await stack.createInstalled(undefined, {
      script: `${INSTALL_SCRIPT}\nprintf '#Minecraft server properties\\nserver-ip=\\nserver-port=25565\\nmotd=hi\\n' > server.properties\n`,
      // The first thing the server's command does is show the file as the process finds it.
      settings: { invocation: 'echo "seen $(grep server-port server.properties)"; node {{GAME_FILE}}' },
      process: {
        configs: [
          {
            parser: 'properties',
            file: 'server.properties',
            replace: [
              { match: 'server-ip', replace_with: '{{config.docker.network.interface}}' },
              { match: 'server-port', replace_with: '30123' },
            ],
          },
          {
            parser: 'yaml',
            file: 'plugins/x/config.yml',
            replace: [{ match: 'port', replace_with: '30124' }],
          },
          {
            parser: 'properties',
            file: '../../escape.properties',
            replace: [{ match: 'a', replace_with: 'b' }],
          },
        ],
      },
    });
    const dir = path.join(stack.config.system.data, uuid);
    expect(await readFile(path.join(dir, 'server.properties'), 'utf8')).toContain('server-port=25565');

    const ws = await stack.startedWs(uuid); // a refused file does not block the start
    const lines = ws.messages.filter((m) => m.event === 'console output').map((m) => m.args![0]!);
    expect(lines).toContain('seen server-port=30123');
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(at('Checking server disk space usage')).toBeGreaterThanOrEqual(0);
    expect(at('Updating process configuration files...')).toBeGreaterThan(
      at('Checking server disk space usage'),
    );
    expect(at('Ensuring file permissions are set correctly')).toBeGreaterThan(
      at('Updating process configuration files...'),
    );
    expect(at('seen server-port')).toBeGreaterThan(at('Ensuring file permissions are set correctly'));

    expect(await readFile(path.join(dir, 'server.properties'), 'utf8')).toBe(
      '#Minecraft server properties\nserver-ip=127.0.0.1\nserver-port=30123\nmotd=hi\n',
    );
    expect(await readFile(path.join(dir, 'plugins/x/config.yml'), 'utf8')).toBe('port: 30124\n');
    expect(existsSync(path.join(stack.config.system.data, '..', 'escape.properties'))).toBe(false);
    if (process.getuid?.() === 0) {
      expect((await stat(path.join(dir, 'plugins/x/config.yml'))).uid).toBe(stack.config.runtime.uid);
    }
    ws.send('set state', 'kill');
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline');
  });
});
