import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import type { ActivityEvent } from '../../../api/activity.ts';
import { describeEvent } from './describe.ts';

const t = i18next.getFixedT('en', 'activity');

/**
 * Every event the panel and the daemon record, with properties shaped as they log them. A new
 * event fails the coverage test below until it is added here, and so gets a readable sentence.
 */
const CATALOGUE: [event: string, properties: Record<string, unknown>][] = [
  ['auth:success', {}],
  ['auth:fail', { username: 'alice' }],
  ['auth:fail', { username: 'alice', two_factor: 'code' }],
  ['auth:fail', { username: 'alice', two_factor: 'recovery-token' }],
  ['auth:checkpoint', {}],
  ['auth:recovery-token', {}],
  ['auth:password-reset', {}],
  ['auth:ip-blocked', {}],
  ['auth:sftp.fail', { using_sftp: true }],
  ['admin:api-key.create', { identifier: 'ptla_abc' }],
  ['admin:api-key.delete', { identifier: 'ptla_abc' }],
  ['admin:settings.update', { fields: ['app:name', 'mail:from'] }],
  ['user:account.email-changed', { old: 'a@example.com', new: 'b@example.com' }],
  ['user:account.password-changed', {}],
  ['user:api-key.create', { identifier: 'ptlc_abc' }],
  ['user:api-key.delete', { identifier: 'ptlc_abc' }],
  ['user:ssh-key.create', { fingerprint: 'SHA256:abc' }],
  ['user:ssh-key.delete', { fingerprint: 'SHA256:abc' }],
  ['user:two-factor.create', {}],
  ['user:two-factor.delete', {}],
  ['user:two-factor.delete', { by_administrator: true, was_enabled: true }],
  ['user:create', { username: 'bob' }],
  ['user:update', { password_changed: true }],
  ['user:delete', { id: 4, username: 'bob' }],
  ['server:console.command', { command: 'say hi' }],
  ['server:power.start', {}],
  ['server:power.stop', {}],
  ['server:power.restart', {}],
  ['server:power.kill', {}],
  ['server:file.read', { file: '/server.properties' }],
  ['server:file.write', { file: '/server.properties' }],
  ['server:file.download', { file: '/world.zip' }],
  ['server:file.copy', { file: '/a.txt' }],
  ['server:file.upload', {}],
  ['server:file.uploaded', { file: 'map.zip', directory: '/world/' }],
  ['server:file.pull', { directory: '/plugins/', url: 'https://example.com/a.jar' }],
  ['server:file.rename', { directory: '/', files: [{ from: 'a.txt', to: 'b.txt' }] }],
  ['server:file.delete', { directory: '/plugins/', files: ['a.jar', 'b.jar'] }],
  ['server:file.compress', { directory: '/', files: ['world'] }],
  ['server:file.decompress', { directory: '/', file: 'world.tar.gz' }],
  ['server:file.create-directory', { directory: '/', name: 'pack' }],
  ['server:file.chmod', { directory: '/', files: [{ file: 'start.sh', mode: '755' }] }],
  [
    'server:file.chmod',
    {
      directory: '/',
      files: [
        { file: 'a.sh', mode: '755' },
        { file: 'b.sh', mode: '700' },
      ],
    },
  ],
  ['server:sftp.write', { files: ['/a.txt'] }],
  ['server:sftp.create', { files: ['/a.txt', '/b.txt'] }],
  ['server:sftp.create-directory', { files: ['/pack'] }],
  ['server:sftp.delete', { files: ['/a.txt'] }],
  ['server:sftp.rename', { files: [{ from: '/a.txt', to: '/b.txt' }] }],
  ['server:sftp.denied', { using_sftp: true }],
  ['server:allocation.create', { allocation: '127.0.0.1:25566' }],
  ['server:allocation.delete', { allocation: '127.0.0.1:25566' }],
  ['server:allocation.notes', { allocation: '127.0.0.1:25566', old: null, new: 'voice' }],
  ['server:allocation.primary', { allocation: '127.0.0.1:25566' }],
  ['server:startup.edit', { variable: 'MOTD', old: 'A', new: 'B' }],
  ['server:startup.image', { old: 'img:17', new: 'img:21' }],
  ['server:startup.update', {}],
  ['server:startup.command', { old: 'Default', new: 'Low memory' }],
  ['server:settings.rename', { old: 'A', new: 'B' }],
  ['server:settings.description', { old: '', new: 'hi' }],
  ['server:subuser.create', { email: 'c@example.com', permissions: ['control.console'] }],
  ['server:subuser.create', { email: 'c@example.com', permissions: ['file.read'], file_paths: ['/plugins'] }],
  [
    'server:subuser.update',
    { email: 'c@example.com', old: ['file.read'], new: ['file.read', 'file.update'], revoked: false },
  ],
  ['server:subuser.delete', { email: 'c@example.com', revoked: true }],
  ['server:backup.start', { name: 'Nightly', locked: false, scheduled: true }],
  ['server:backup.complete', { name: 'Nightly' }],
  ['server:backup.fail', { name: 'Nightly' }],
  ['server:backup.fail', { name: 'Nightly', pruned: true }],
  ['server:backup.delete', { name: 'Nightly', failed: false }],
  ['server:backup.delete', { name: 'Nightly', rotated: true }],
  ['server:backup.download', { name: 'Nightly' }],
  ['server:backup.restore', { name: 'Nightly', truncate: true }],
  ['server:backup.restore-complete', { name: 'Nightly' }],
  ['server:backup.restore-failed', { name: 'Nightly' }],
  ['server:backup.restore-failed', { interrupted: true }],
  ['server:backup.lock', { name: 'Nightly' }],
  ['server:backup.unlock', { name: 'Nightly' }],
  ['server:database.create', { name: 's1_db' }],
  ['server:database.delete', { name: 's1_db' }],
  ['server:database.rotate-password', { name: 's1_db' }],
  ['server:schedule.create', { name: 'Restart' }],
  ['server:schedule.update', { name: 'Restart', active: true }],
  ['server:schedule.delete', { name: 'Restart' }],
  ['server:schedule.execute', { name: 'Restart' }],
  ['server:task.create', { name: 'Restart', action: 'power', payload: 'restart' }],
  ['server:task.update', { name: 'Restart', action: 'command', payload: 'say bye' }],
  ['server:task.delete', { name: 'Restart', action: 'backup', payload: '' }],
  [
    'server:task.skipped',
    { name: 'Restart', action: 'command', payload: 'say bye', reason: 'the server is offline' },
  ],
  ['server:reinstall', {}],
  ['server:install.completed', {}],
  ['server:install.failed', {}],
  ['server:create', { name: 'Survival' }],
  ['server:delete', { uuid: 'd3aac109-e5a0-4331-b03e-3454f7e136dc', name: 'Survival' }],
  ['server:suspend', {}],
  ['server:unsuspend', {}],
  ['server:build.update', {}],
  ['server:details.update', {}],
];

/** The properties as the panel's list shows them: a folder as `/x/`, `count` for a single list. */
function presented(properties: Record<string, unknown>): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...properties };
  const lists = Object.entries(properties).filter(([, v]) => Array.isArray(v));
  if (lists.length === 1) shown.count = (lists[0]![1] as unknown[]).length;
  return shown;
}

function event(name: string, properties: Record<string, unknown>, actor = true): ActivityEvent {
  return {
    id: 'x',
    batch: null,
    event: name,
    isApi: false,
    ip: null,
    description: null,
    properties: presented(properties),
    hasAdditionalMetadata: false,
    timestamp: new Date(),
    actor: actor ? { uuid: 'u', username: 'alice', email: 'alice@example.com', image: '' } : null,
  };
}

const say = (name: string, properties: Record<string, unknown> = {}, actor = true) =>
  describeEvent(event(name, properties, actor), t);

describe('activity sentences', () => {
  it('covers every event the panel and the daemon record', () => {
    const recorded = new Set<string>();
    for (const app of ['panel', 'daemon']) {
      const dir = path.join(import.meta.dirname, `../../../../../${app}/src`);
      for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
        if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.includes('test-support')) continue;
        const text = readFileSync(path.join(dir, file), 'utf8');
        for (const m of text.matchAll(/'((?:auth|user|server|admin):[a-z-]+(?:\.[a-z-]+)*)'/gu)) {
          recorded.add(m[1]!);
        }
      }
    }
    // Names of command-line commands, not events.
    recorded.delete('user:list');
    recorded.delete('user:password');
    expect(recorded.size).toBeGreaterThan(60);
    const catalogued = new Set(CATALOGUE.map(([name]) => name));
    expect([...recorded].filter((name) => !catalogued.has(name))).toEqual([]);
  });

  it.each(CATALOGUE)('%s %j reads as a sentence, without JSON or gaps', (name, properties) => {
    for (const actor of [true, false]) {
      const line = say(name, properties, actor);
      expect(line).not.toBe(name);
      expect(line).not.toMatch(/[{}[\]"]{2}|[{}]|\[object|undefined|null|NaN/u);
      expect(line).not.toMatch(/ {2}|^\s|\s$| [,.;:]/u);
    }
  });

  it('says what a two-factor sign-in and its failures were', () => {
    expect(say('auth:checkpoint')).toBe('alice signed in with a two-factor code');
    expect(say('auth:fail', { username: 'alice' }, false)).toBe('Someone failed to sign in as alice');
    expect(say('auth:fail', { username: 'alice', two_factor: 'code' }, false)).toBe(
      'Someone entered the right password for alice but a wrong two-factor code',
    );
    expect(say('auth:fail', { username: 'alice', two_factor: 'recovery-token' }, false)).toBe(
      'Someone entered the right password for alice but an unknown or already used recovery code',
    );
  });

  it('reads permission changes, and any other object, as words', () => {
    expect(say('server:file.chmod', { directory: '/', files: [{ file: 'start.sh', mode: '755' }] })).toBe(
      'alice changed the permissions of start.sh (755) in /',
    );
    expect(
      say('server:file.chmod', {
        directory: '/bin/',
        files: [
          { file: 'a.sh', mode: '755' },
          { file: 'b.sh', mode: 700 },
        ],
      }),
    ).toBe('alice changed the permissions of 2 files in /bin');
    // A shape no sentence knows yet: its values, keyed, never braces.
    expect(say('server:file.copy', { file: { path: '/a.txt', size: 3 } })).toBe(
      'alice copied path /a.txt, size 3',
    );
    expect(say('server:power.start', {}, false)).toBe('The system started the server');
    expect(say('server:console.command', { command: 'say hi' })).toBe('alice ran "say hi" in the console');
    expect(say('server:backup.restore-failed', { interrupted: true }, false)).toBe(
      'Restoring a backup was interrupted by a restart of the node; some files may not have been restored',
    );
  });
});
