// Issue 17 on the daemon: egg placeholders of either panel in the start-up command and in config
// rules that arrive unresolved, and an empty `done` string (running at the first line, as Wings).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { serverSettingsSchema } from '@talon/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.ts';
import { rewriteConfigFiles } from '../config-files/rewrite.ts';
import { doneMatcher } from './console.ts';
import { substituteStartup } from './environment.ts';

const settings = serverSettingsSchema.parse({
  uuid: 'a1b2c3d4-0000-4000-8000-000000000001',
  environment: { MOTD: 'hi there', PLAYERS: 8 },
  invocation: '',
  build: {
    memory_limit: 512,
    swap: 0,
    io_weight: 500,
    cpu_limit: 100,
    threads: null,
    disk_space: 1024,
    oom_disabled: false,
  },
  allocations: { default: { ip: '127.0.0.1', port: 27015 }, mappings: {} },
});

describe('start-up command', () => {
  it.each([
    ['./run --port {{server.allocations.default.port}}', './run --port 27015'],
    [
      './run --ip {{server.allocations.default.ip}} --mem {{server.build.memory_limit}}',
      './run --ip 127.0.0.1 --mem 512',
    ],
    ['./run "{{server.environment.MOTD}}" {{server.build.env.PLAYERS}}', './run "hi there" 8'],
    ['./run {{server.build.default.port}} {{env.MOTD}}', './run 27015 hi there'],
    ['./run {{SERVER_PORT}} ${MOTD}', './run 27015 hi there'],
    ['./run {{env.SERVER_PORT}} {{env.TZ}}', './run 27015 UTC'],
  ])('%s', (invocation, expected) => {
    const env = { SERVER_PORT: '27015', MOTD: 'hi there', TZ: 'UTC' };
    expect(substituteStartup(invocation, env, settings)).toBe(expected);
  });

  it('reports an unknown placeholder instead of dropping it silently', () => {
    const unknown: string[] = [];
    expect(substituteStartup('./run {{server.nope}}', {}, settings, (p) => unknown.push(p))).toBe('./run ');
    expect(unknown).toEqual(['server.nope']);
  });
});

describe('done', () => {
  it('an empty string matches the first line', () => {
    expect(doneMatcher('', false)('anything at all')).toBe(true);
    expect(doneMatcher(['Ready'], false)('not yet')).toBe(false);
  });
});

describe('config rules that arrive with placeholders', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'talon-eggvals-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('get the server values, under a /-prefixed path', async () => {
    const config = parseConfig({ token_id: 'abcdefghijklmnop', token: 't', remote: 'http://panel.test' });
    const logs: string[] = [];
    const log = pino({ level: 'warn' }, { write: (l: string) => logs.push(l) });
    const outcomes = await rewriteConfigFiles(
      {
        uuid: settings.uuid,
        dir,
        config: {
          settings,
          process_configuration: {
            startup: { done: [], user_interaction: [], strip_ansi: false },
            stop: { type: 'command', value: 'stop' },
            configs: [
              {
                parser: 'properties',
                file: '/cfg/game.properties',
                replace: [
                  { match: 'port', replace_with: '{{server.allocations.default.port}}' },
                  { match: 'motd', replace_with: '{{server.environment.MOTD}}' },
                  { match: 'odd', replace_with: '{{server.unknown.thing}}' },
                ],
              },
            ],
          },
        },
      },
      { config, log, owner: null },
    );
    expect(outcomes).toEqual([{ file: '/cfg/game.properties', parser: 'properties', result: 'written' }]);
    const text = await readFile(path.join(dir, 'cfg', 'game.properties'), 'utf8');
    expect(text).toContain('port=27015');
    expect(text).toContain('motd=hi there');
    expect(text).toContain('odd=');
    expect(logs.join('')).toContain('server.unknown.thing');
  });
});
