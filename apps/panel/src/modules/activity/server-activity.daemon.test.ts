import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, User } from '../../db/types.ts';
import { routeTable } from '../../http/route-guard.ts';
import type { TestClient } from '../../test-support/client.ts';
import { startTestDaemon, type TestDaemon } from '../../test-support/daemon.ts';
import {
  freeAllocation,
  listServerActivity,
  serverBody,
  waitUntil,
} from '../../test-support/daemon-servers.ts';
import { applicationClient, gameServerEgg, subuserClient } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { openSftp } from '../../test-support/sftp.ts';

// Every mutation of the server area is in the server's activity list, with who did it, from where
// and what (DESIGN.md §4): one real panel and daemon, a real SFTP client for the daemon's batches.
let panel: TestPanel;
let daemon: TestDaemon;
let owner: User;
let ownerClient: TestClient;
let server: Server;
const PASSWORD = 'activity sftp password';

const base = () => `/api/client/servers/${server.uuid_short}`;
/** The server's activity as its owner reads it, oldest first. */
const listed = () => listServerActivity(ownerClient, server);

/**
 * What each mutating client server route records, or the test file that proves it where this file
 * cannot reach the route (a download from the internet, a second allocation, a reinstall). A new
 * mutating route fails the first test until it is added here.
 */
const RECORDED: Record<string, string> = {
  'POST /api/client/servers/:server/command': 'server:console.command',
  'POST /api/client/servers/:server/power': 'server:power.start',
  'POST /api/client/servers/:server/files/write': 'server:file.write',
  'PUT /api/client/servers/:server/files/rename': 'server:file.rename',
  'POST /api/client/servers/:server/files/copy': 'server:file.copy',
  'POST /api/client/servers/:server/files/compress': 'server:file.compress',
  'POST /api/client/servers/:server/files/decompress': 'server:file.decompress',
  'POST /api/client/servers/:server/files/delete': 'server:file.delete',
  'POST /api/client/servers/:server/files/create-folder': 'server:file.create-directory',
  'POST /api/client/servers/:server/files/chmod': 'server:file.chmod',
  'POST /api/client/servers/:server/files/pull': 'files-pull.daemon.test.ts',
  'PUT /api/client/servers/:server/startup/variable': 'server:startup.edit',
  'PUT /api/client/servers/:server/settings/docker-image': 'startup.client.test.ts',
  'POST /api/client/servers/:server/settings/rename': 'server:settings.rename',
  'POST /api/client/servers/:server/settings/reinstall': 'server-settings.daemon.test.ts',
  'POST /api/client/servers/:server/network/allocations': 'network.client.test.ts',
  'POST /api/client/servers/:server/network/allocations/:allocation': 'server:allocation.notes',
  'POST /api/client/servers/:server/network/allocations/:allocation/primary': 'network.client.test.ts',
  'DELETE /api/client/servers/:server/network/allocations/:allocation': 'network.client.test.ts',
  'POST /api/client/servers/:server/users': 'server:subuser.create',
  'POST /api/client/servers/:server/users/:user': 'server:subuser.update',
  'DELETE /api/client/servers/:server/users/:user': 'server:subuser.delete',
  'POST /api/client/servers/:server/schedules': 'schedules.client.test.ts',
  'POST /api/client/servers/:server/schedules/:schedule': 'schedules.client.test.ts',
  'POST /api/client/servers/:server/schedules/:schedule/execute': 'schedules.client.test.ts',
  'DELETE /api/client/servers/:server/schedules/:schedule': 'schedules.client.test.ts',
  'POST /api/client/servers/:server/schedules/:schedule/tasks': 'schedules.client.test.ts',
  'POST /api/client/servers/:server/schedules/:schedule/tasks/:task': 'schedules.client.test.ts',
  'DELETE /api/client/servers/:server/schedules/:schedule/tasks/:task': 'schedules.client.test.ts',
  'POST /api/client/servers/:server/backups': 'backups.daemon.test.ts',
  'POST /api/client/servers/:server/backups/:backup/lock': 'backups.daemon.test.ts',
  'POST /api/client/servers/:server/backups/:backup/restore': 'backups.daemon.test.ts',
  'DELETE /api/client/servers/:server/backups/:backup': 'backups.daemon.test.ts',
  'POST /api/client/servers/:server/databases': 'databases.client.test.ts',
  'POST /api/client/servers/:server/databases/:database/rotate-password': 'databases.client.test.ts',
  'DELETE /api/client/servers/:server/databases/:database': 'databases.client.test.ts',
  'PUT /api/client/servers/:server/startup/command': 'startup.commands.test.ts',
};

beforeAll(async () => {
  panel = await startTestPanel();
  daemon = await startTestDaemon(panel.ctx);
  const egg = await gameServerEgg(panel.ctx);
  owner = await panel.createUser();
  ownerClient = await panel.signedIn(owner);
  const app = await applicationClient(panel);
  const created = await app.post(
    '/api/application/servers',
    serverBody(owner, egg, await freeAllocation(panel.ctx, daemon.node), { name: 'Logged world' }),
  );
  expect(created.status, created.text).toBe(201);
  server = (await panel.ctx.repositories.servers.findByIdentifier(created.body.attributes.identifier))!;
  await waitUntil(
    'the installation',
    () => ownerClient.get(base()),
    (r) => r.body.attributes.status === null,
  );
}, 180_000);

afterAll(async () => {
  await daemon?.stop();
  await panel?.close();
});

describe('the server activity list', () => {
  it('knows what every mutating client server route records', () => {
    const mutating = routeTable(panel.app)
      .filter((r) => r.url.startsWith('/api/client/servers/:server') && !['GET', 'HEAD'].includes(r.method))
      .map((r) => `${r.method} ${r.url}`);
    expect(mutating.sort()).toEqual(Object.keys(RECORDED).sort());
  });

  it('lists each mutation with its actor, address and properties', async () => {
    const ok = async (res: Promise<{ status: number; text: string }>) => {
      const r = await res;
      expect(r.status, r.text).toBeLessThan(300);
    };
    await ok(ownerClient.post(`${base()}/power`, { signal: 'start' }));
    await waitUntil(
      'the server running',
      () => ownerClient.get(`${base()}/resources`),
      (r) => r.body.attributes?.current_state === 'running',
    );
    await ok(ownerClient.post(`${base()}/command`, { command: 'say logged' }));
    await ok(ownerClient.postRaw(`${base()}/files/write?file=notes.txt`, 'hello'));
    await ok(
      ownerClient.put(`${base()}/files/rename`, { root: '/', files: [{ from: 'notes.txt', to: 'n.txt' }] }),
    );
    await ok(ownerClient.post(`${base()}/files/copy`, { location: 'n.txt' }));
    await ok(ownerClient.post(`${base()}/files/create-folder`, { root: '/', name: 'pack' }));
    const archive = await ownerClient.post(`${base()}/files/compress`, { root: '/', files: ['n.txt'] });
    expect(archive.status, archive.text).toBe(200);
    await ok(
      ownerClient.post(`${base()}/files/decompress`, { root: '/', file: archive.body.attributes.name }),
    );
    await ok(ownerClient.post(`${base()}/files/chmod`, { root: '/', files: [{ file: 'n.txt', mode: 640 }] }));
    await ok(ownerClient.post(`${base()}/files/delete`, { root: '/', files: ['n copy.txt'] }));
    await ok(ownerClient.put(`${base()}/startup/variable`, { key: 'MOTD', value: 'logged motd' }));
    await ok(ownerClient.post(`${base()}/settings/rename`, { name: 'Logged world 2' }));
    await ok(ownerClient.post(`${base()}/network/allocations/${server.allocation_id}`, { notes: 'main' }));
    const member = await panel.createUser({ password: PASSWORD });
    await ok(
      ownerClient.post(`${base()}/users`, { email: member.email, permissions: ['file.sftp', 'file.create'] }),
    );
    await ok(
      ownerClient.post(`${base()}/users/${member.uuid}`, {
        permissions: ['file.sftp', 'file.create', 'file.read'],
      }),
    );
    await ok(ownerClient.post(`${base()}/power`, { signal: 'stop' }));

    const entries = await listed();
    const recorded = new Set(Object.values(RECORDED).filter((v) => v.startsWith('server:')));
    recorded.add('server:power.stop');
    recorded.delete('server:subuser.delete');
    for (const event of recorded) {
      const entry = entries.find((e) => e.event === event);
      expect(entry, event).toBeDefined();
      expect(entry, event).toMatchObject({ actor: owner.uuid, ip: '127.0.0.1' });
    }
    expect(entries.find((e) => e.event === 'server:console.command')?.properties).toEqual({
      command: 'say logged',
    });
    expect(entries.find((e) => e.event === 'server:file.rename')?.properties).toEqual({
      directory: '/',
      files: [{ from: 'notes.txt', to: 'n.txt' }],
      count: 1,
    });
    expect(entries.find((e) => e.event === 'server:subuser.update')?.properties).toMatchObject({
      email: member.email,
      old: ['file.sftp', 'file.create', 'websocket.connect'],
      new: ['file.sftp', 'file.create', 'file.read', 'websocket.connect'],
    });

    await ok(ownerClient.delete(`${base()}/users/${member.uuid}`));
    expect((await listed()).at(-1)).toMatchObject({
      event: 'server:subuser.delete',
      actor: owner.uuid,
      properties: { email: member.email },
    });
  });

  it("lists the daemon's SFTP batches under the subuser who signed in", async () => {
    const { user: member } = await subuserClient(panel, server, ['file.sftp', 'file.create'], {
      user: { password: PASSWORD },
    });
    // The daemon sends its batch some seconds later; the entry names the subuser.
    const sftp = await openSftp(daemon.node.daemon_sftp, `${member.username}.${server.uuid_short}`, PASSWORD);
    await sftp.writeFile('/over-sftp.txt', 'by sftp');
    sftp.end();
    const withSftp = await waitUntil(
      'the daemon reporting the SFTP write',
      listed,
      (list) => list.some((e) => e.event.startsWith('server:sftp.')),
      25_000,
      250,
    );
    const sftpEntry = withSftp.find((e) => e.event.startsWith('server:sftp.'));
    expect(sftpEntry).toMatchObject({
      event: 'server:sftp.create',
      actor: member.uuid,
      properties: { count: 1 },
    });
    expect(sftpEntry?.properties.files).toEqual([expect.stringContaining('over-sftp.txt')]);
  });
});
