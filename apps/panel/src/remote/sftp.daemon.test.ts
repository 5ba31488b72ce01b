import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../db/types.ts';
import { startTestDaemon, type TestDaemon } from '../test-support/daemon.ts';
import { freeAllocation, serverBody, waitUntil } from '../test-support/daemon-servers.ts';
import { applicationClient, gameServerEgg } from '../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

// SFTP end to end: a real SFTP client logs in to the real daemon, which asks the real panel
// (`POST /api/remote/sftp/auth`) whether `<username>.<short id>` with that password may enter.
let panel: TestPanel;
let daemon: TestDaemon;
let owner: User;
const PASSWORD = 'sftp-integration-pw';
const clients: ssh2.Client[] = [];

beforeAll(async () => {
  panel = await startTestPanel();
  daemon = await startTestDaemon(panel.ctx);
  owner = await panel.createUser({ password: PASSWORD });
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.end();
  await daemon?.stop();
  await panel?.close();
});

function connect(port: number, username: string, password: string): Promise<SFTPWrapper> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    clients.push(client);
    client.once('error', reject);
    client.once('ready', () => client.sftp((err, sftp) => (err ? reject(err) : resolve(sftp))));
    client.connect({ host: '127.0.0.1', port, username, password, tryKeyboard: false, readyTimeout: 15_000 });
  });
}

describe('SFTP through the panel and a real daemon', () => {
  it('the owner signs in with <username>.<short id> and their password and uploads a file', async () => {
    const egg = await gameServerEgg(panel.ctx);
    const app = await applicationClient(panel);
    const created = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, await freeAllocation(panel.ctx, daemon.node), { name: 'SFTP world' }),
    );
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.attributes.identifier;
    const uuid: string = created.body.attributes.uuid;

    const user = await panel.signedIn(owner);
    const details = await waitUntil(
      'the installation',
      () => user.get(`/api/client/servers/${id}`),
      (d) => d.body.attributes.status === null,
    );
    expect(details.body.attributes.status).toBeNull();
    const { ip, port } = details.body.attributes.sftp_details as { ip: string; port: number };
    expect(port).toBe(daemon.node.daemon_sftp);
    expect(ip).toBe(daemon.node.fqdn);

    await expect(connect(port, `${owner.username}.${id}`, 'not-the-password')).rejects.toThrow(
      /authentication methods failed/i,
    );

    const sftp = await connect(port, `${owner.username}.${id}`, PASSWORD);
    await new Promise<void>((res, rej) =>
      sftp.writeFile('/uploads/from-sftp.txt', 'uploaded over sftp', (e) => (e ? rej(e) : res())),
    );
    const serverDir = path.join(daemon.node.daemon_base, uuid);
    const file = path.join(serverDir, 'uploads/from-sftp.txt');
    expect(await readFile(file, 'utf8')).toBe('uploaded over sftp');
    const [fst, dst] = [await stat(file), await stat(serverDir)];
    expect({ uid: fst.uid, gid: fst.gid }).toEqual({ uid: dst.uid, gid: dst.gid });
    if (process.getuid?.() === 0) expect(fst.uid).not.toBe(0);

    // the failed login was recorded by the panel
    const fails = await panel.ctx.db.db
      .selectFrom('activity_logs')
      .select('id')
      .where('event', '=', 'auth:sftp.fail')
      .execute();
    expect(fails.length).toBe(1);
  }, 120_000);
});
