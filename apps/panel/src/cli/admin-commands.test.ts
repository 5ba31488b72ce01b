// The CLI's list, create and delete commands for users, locations, nodes and eggs, and --help, as
// an operator runs them (real processes on a real database); refusals use the API's words.
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nodeSetupService } from '../modules/nodes/node-setup.wiring.ts';
import { gameServerEgg, serverRow } from '../test-support/fixtures.ts';
import { startTestCli, type TestCli } from '../test-support/cli.ts';
import { commands } from './commands.ts';
import { commandHelp } from './help.ts';

let cli: TestCli;

// Each test runs the CLI several times as separate processes (a TypeScript start each); on a loaded
// machine running the PostgreSQL suite beside the browser tests, that took longer than the default 30 s.
vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  cli = await startTestCli();
}, 60_000);
afterAll(async () => {
  await cli?.close();
});

const nodeByName = (name: string) =>
  cli.ctx.db.db.selectFrom('nodes').selectAll().where('name', '=', name).executeTakeFirst();

describe('--help', () => {
  it('the CLI lists every command; a command shows its usage, options and an example', async () => {
    const [all, create, unknown] = await Promise.all([
      cli.run('--help'),
      cli.run('node:create', '--help'),
      cli.run('node:explode'),
    ]);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('Usage: npm run -s panel -- <command> [options]');
    for (const name of Object.keys(commands)) expect(all.stdout).toContain(`  ${name} `);
    expect(create.code).toBe(0);
    expect(create.stderr).toBe('');
    expect(create.stdout).toContain('Usage: npm run -s panel -- node:create --name N --location ID|SHORT');
    expect(create.stdout).toMatch(/--fqdn VALUE +the address the panel and browsers reach its daemon at/u);
    expect(create.stdout).toMatch(/--behind-proxy +the daemon is behind/u);
    expect(create.stdout).toContain('Example:\n  npm run -s panel -- node:create --name "Frankfurt 1"');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('Unknown command "node:explode".');
  });

  it('every command documents each of its options and gives an example of itself', () => {
    for (const [name, command] of Object.entries(commands)) {
      expect(Object.keys(command.help).sort(), name).toEqual(Object.keys(command.options).sort());
      for (const text of Object.values(command.help)) expect(text, name).not.toBe('');
      expect(command.example, name).toContain(`panel -- ${name}`);
      const help = commandHelp(name, command);
      expect(help, name).toContain(`Usage: npm run -s panel -- ${name}`);
      expect(help, name).toContain('Example:');
    }
  });
});

describe('users and eggs', () => {
  it('user:list shows accounts and searches them; egg:list shows eggs with their nests', async () => {
    await cli.ctx.services.users.create({
      email: 'ada@example.com',
      username: 'ada',
      password: 'ada-pass-12',
      root_admin: true,
    });
    await cli.ctx.services.users.create({
      email: 'bob@example.org',
      username: 'bob',
      password: 'bob-pass-12',
    });
    const egg = await gameServerEgg(cli.ctx);
    const [all, search, eggs] = await Promise.all([
      cli.run('user:list'),
      cli.run('user:list', '--search', 'EXAMPLE.ORG'),
      cli.run('egg:list'),
    ]);
    expect(all.stdout.split('\n')[0]).toMatch(/^ID +USERNAME +EMAIL +ADMIN +2FA$/u);
    expect(all.stdout).toMatch(/ada +ada@example\.com +yes +off/u);
    expect(all.stdout).toMatch(/bob +bob@example\.org +no +off/u);
    expect(search.stdout).not.toContain('ada');
    expect(search.stdout).toContain('bob');
    expect(eggs.stdout.split('\n')[0]).toMatch(/^ID +NAME +NEST$/u);
    expect(eggs.stdout).toMatch(new RegExp(`${egg.id} +${egg.name.replace(/[()]/gu, '\\$&')} +Talon`, 'u'));
  });
});

describe('locations and nodes', () => {
  it('location:create, node:create (with description) and their lists', async () => {
    const location = await cli.run('location:create', '--short', 'eu-west', '--long', 'Frankfurt, Germany');
    expect(location).toMatchObject({ code: 0, stderr: '' });
    expect(location.stdout).toMatch(/^Created location \d+ "eu-west"\.\n$/u);
    const node = await cli.run(
      'node:create',
      '--name',
      'Frankfurt 1',
      '--location',
      'eu-west',
      '--fqdn',
      'node1.example.com',
      '--memory',
      '16384',
      '--disk',
      '204800',
      '--description',
      'Rack 4',
    );
    expect(node.code, node.stderr).toBe(0);
    const stored = (await nodeByName('Frankfurt 1'))!;
    expect(stored).toMatchObject({
      fqdn: 'node1.example.com',
      scheme: 'https',
      memory: 16384,
      disk: 204800,
      daemon_listen: 8080,
      daemon_sftp: 2022,
      public: 1,
      description: 'Rack 4',
    });
    expect(node.stdout).toContain(`Created node ${stored.id} "Frankfurt 1" (https://node1.example.com:8080)`);
    expect(node.stdout).toContain(`node:setup-token --node ${stored.id}`);

    const [nodes, locations, searched] = await Promise.all([
      cli.run('node:list'),
      cli.run('location:list'),
      cli.run('node:list', '--search', 'NOTHING'),
    ]);
    expect(nodes.stdout.split('\n')[0]).toMatch(/^ID +NAME +ADDRESS +LOCATION +MEMORY MiB +DISK MiB$/u);
    expect(nodes.stdout).toMatch(
      new RegExp(
        `${stored.id} +Frankfurt 1 +https://node1\\.example\\.com:8080 +${stored.location_id} +0/16384 +0/204800`,
        'u',
      ),
    );
    expect(locations.stdout).toMatch(/eu-west +Frankfurt, Germany/u);
    expect(searched.stdout).toBe('No nodes.\n');
  });

  it('node:create reports each bad field with the API messages and creates nothing', async () => {
    const before = (await cli.ctx.db.db.selectFrom('nodes').select('id').execute()).length;
    const bad = await cli.run(
      'node:create',
      '--name',
      'Bad/Name',
      '--location',
      'eu-west',
      '--fqdn',
      'x.example.com',
      '--memory',
      'lots',
      '--disk',
      '10',
      '--scheme',
      'ftp',
    );
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('The name format is invalid.');
    expect(bad.stderr).toContain('The memory must be a number.');
    expect(bad.stderr).toContain('The selected scheme is invalid.');
    const nowhere = await cli.run(
      'node:create',
      '--name',
      'X',
      '--location',
      'mars',
      '--fqdn',
      'x',
      '--memory',
      '1',
      '--disk',
      '1',
    );
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain('no location with the id or short code "mars"');
    expect((await cli.ctx.db.db.selectFrom('nodes').select('id').execute()).length).toBe(before);
  });

  it('deletes refuse what is in use with the API messages, then delete', async () => {
    await cli.run('location:create', '--short', 'busy');
    await cli.run(
      'node:create',
      '--name',
      'Busy node',
      '--location',
      'busy',
      '--fqdn',
      'busy.example.com',
      '--memory',
      '1024',
      '--disk',
      '1024',
    );
    const node = (await nodeByName('Busy node'))!;
    await cli.ctx.services.allocations.create(
      node.id,
      { ip: '10.0.0.9', ports: ['25565'] },
      {
        userId: null,
        apiKeyId: null,
        ip: null,
      },
    );
    const owner = (
      await cli.ctx.services.users.create({
        email: 'o@example.com',
        username: 'owner',
        password: 'owner-pass-1',
      })
    ).user;
    const egg = await gameServerEgg(cli.ctx);
    const server = await serverRow(cli.ctx, node, egg, owner.id);

    const [location, nodeRefused, userRefused, eggRefused] = await Promise.all([
      cli.run('location:delete', '--location', 'busy'),
      cli.run('node:delete', '--node', 'Busy node'),
      cli.run('user:delete', '--user', 'owner'),
      cli.run('egg:delete', '--egg', String(egg.id)),
    ]);
    expect(location).toMatchObject({ code: 1, stdout: '' });
    expect(location.stderr).toBe(
      'location:delete: Cannot delete a location that has active nodes attached to it.\n',
    );
    expect(nodeRefused.stderr).toBe(
      'node:delete: A node must have no servers linked to it in order to be deleted.\n',
    );
    expect(userRefused.stderr).toBe(
      'user:delete: Cannot delete a user with active servers attached to their account. Please delete their servers before continuing.\n',
    );
    expect(eggRefused.stderr).toBe('egg:delete: Cannot delete an egg that servers still use.\n');
    expect(await nodeByName('Busy node')).toBeDefined();
    expect(await cli.ctx.repositories.users.findByLogin('owner')).toBeDefined();

    await cli.ctx.repositories.servers.delete(server.id);
    const nodeDeleted = await cli.run('node:delete', '--node', String(node.id));
    expect(nodeDeleted).toMatchObject({ code: 0, stdout: `Deleted node ${node.id} "Busy node".\n` });
    const [locationDeleted, userDeleted, eggDeleted] = await Promise.all([
      cli.run('location:delete', '--location', 'busy'),
      cli.run('user:delete', '--user', 'o@example.com'),
      cli.run('egg:delete', '--egg', String(egg.id)),
    ]);
    expect(locationDeleted.code, locationDeleted.stderr).toBe(0);
    expect(userDeleted.stdout).toBe('Deleted user owner (o@example.com).\n');
    expect(eggDeleted.stdout).toBe(`Deleted egg ${egg.id} "${egg.name}".\n`);
    expect(await nodeByName('Busy node')).toBeUndefined();
    expect(await cli.ctx.repositories.users.findByLogin('owner')).toBeUndefined();
    expect(await cli.ctx.repositories.eggs.findEgg(egg.id)).toBeUndefined();
    const missing = await cli.run('node:delete', '--node', 'Busy node');
    expect(missing.stderr).toContain('no node with the id or name "Busy node" (node:list shows them)');
  });

  it('node:configure --file leaves the node secret readable by its owner only, even over an existing file', async () => {
    const node = (await nodeByName('Frankfurt 1'))!;
    const file = path.join(cli.dataDir, 'daemon.json');
    writeFileSync(file, 'old text, readable by all', { mode: 0o644 });
    chmodSync(file, 0o644);
    const res = await cli.run('node:configure', '--node', 'Frankfurt 1', '--file', file);
    expect(res.code, res.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ uuid: node.uuid });
  });

  it('node:setup-token prints only the one-line command; its token redeems once', async () => {
    const node = (await nodeByName('Frankfurt 1'))!;
    const res = await cli.run('node:setup-token', '--node', 'Frankfurt 1');
    expect(res.code, res.stderr).toBe(0);
    const match = /^npm run -s daemon -- configure --panel-url \S+ --token ([A-Za-z0-9]{48})\n$/u.exec(
      res.stdout,
    );
    expect(match).not.toBeNull();
    expect(res.stderr).toContain('Run it on the machine of node "Frankfurt 1"');
    const setup = nodeSetupService(cli.ctx);
    const actor = { userId: null, apiKeyId: null, ip: null };
    expect((await setup.redeem(match![1]!, actor)).uuid).toBe(node.uuid);
    await expect(setup.redeem(match![1]!, actor)).rejects.toMatchObject({ status: 404 });
  });
});
