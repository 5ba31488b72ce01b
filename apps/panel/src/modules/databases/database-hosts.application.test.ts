import { createServer, type Server as NetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { decrypt } from '../../lib/crypto.ts';
import type { Res, TestClient } from '../../test-support/client.ts';
import { postgresAdmin, uniqueDatabaseName } from '../../test-support/database-hosts.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { applicationClient, FULL } from '../application/testing.ts';

// Issue 23 item 6: a host update that moved the host elsewhere without the password connected to
// the new address with the stored admin password before anything refused it. Whoever may edit a
// host (an r_database_hosts key) could point it at a listener of theirs and collect the password.
// A listener on a free loopback port stands for the attacker's address.

let panel: TestPanel;
let admin: User;
let api: TestClient;
let listener: NetServer;
let listenerPort: number;
/** connections the listener has accepted (it closes each at once) */
let connections = 0;

const failures = (res: Res) => {
  expect(res.status, res.text).toBe(422);
  return (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}|${e.detail}`,
  );
};
const hostRow = (id: number) =>
  panel.ctx.db.db.selectFrom('database_hosts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** A PostgreSQL host of the local server, created through the API; its body without the password. */
async function createHost() {
  const a = postgresAdmin();
  const body = {
    name: `pg-${uniqueDatabaseName()}`,
    engine: 'postgresql',
    host: a.host,
    port: a.port,
    username: a.username,
  };
  const res = await api.post('/api/application/database-hosts', { ...body, password: a.password });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.attributes.id as number, body };
}

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  api = await applicationClient(panel, admin, { r_database_hosts: FULL });
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerPort = (listener.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => listener?.close(resolve));
  await panel?.close();
});

describe('PATCH /api/application/database-hosts/{id} moving the host', () => {
  const PASSWORD_AGAIN =
    'password|required|The password field is required when the host, port, engine or username changes.';

  it('needs the password again to change the port: 422, and the new address hears nothing', async () => {
    const { id, body } = await createHost();
    const before = await hostRow(id);
    const patch = (extra: Record<string, unknown>) =>
      api.request('PATCH', `/api/application/database-hosts/${id}`, { ...body, ...extra });
    expect(failures(await patch({ port: listenerPort }))).toEqual([PASSWORD_AGAIN]);
    expect(failures(await patch({ port: listenerPort, password: '' }))).toEqual([PASSWORD_AGAIN]);
    expect(failures(await patch({ port: listenerPort, password: null }))).toEqual([PASSWORD_AGAIN]);
    expect(connections).toBe(0);
    expect(await hostRow(id)).toEqual(before);
  });

  it('needs it for a new host name, username or engine too', async () => {
    const { id, body } = await createHost();
    const before = await hostRow(id);
    for (const change of [{ host: 'localhost' }, { username: 'someone_else' }, { engine: 'mysql' }]) {
      const res = await api.request('PATCH', `/api/application/database-hosts/${id}`, { ...body, ...change });
      expect(failures(res), JSON.stringify(change)).toEqual([PASSWORD_AGAIN]);
    }
    expect(await hostRow(id)).toEqual(before);
  });

  it('with the password, the connection test goes to the new address (refused there: 400, unchanged)', async () => {
    const { id, body } = await createHost();
    const before = await hostRow(id);
    const res = await api.request('PATCH', `/api/application/database-hosts/${id}`, {
      ...body,
      port: listenerPort,
      password: 'the operator typed it again',
    });
    expect(res.status, res.text).toBe(400);
    expect(connections).toBe(1);
    connections = 0;
    expect(await hostRow(id)).toEqual(before);
  });

  it('keeps the stored password for changes that leave the address alone', async () => {
    const { id, body } = await createHost();
    const res = await api.request('PATCH', `/api/application/database-hosts/${id}`, {
      ...body,
      name: `${body.name}-renamed`,
      max_databases: 4,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes).toMatchObject({ name: `${body.name}-renamed`, max_databases: 4 });
    const row = await hostRow(id);
    expect(decrypt(panel.ctx.config.appKey, row.password)).toBe(postgresAdmin().password);
  });
});
