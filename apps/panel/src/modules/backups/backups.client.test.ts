import { randomUUID } from 'node:crypto';
import { clientBackupListSchema, clientBackupItemSchema, clientSignedUrlSchema } from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backup, Egg, Node, Server, User } from '../../db/types.ts';
import { nodeUrl } from '../../daemon-client/daemon-client.ts';
import { pruneBackups } from '../../jobs/backup-prune.ts';
import { expectError, type Res, type TestClient } from '../../test-support/client.ts';
import {
  activityAbout,
  nodeAndEgg,
  remoteClient,
  serverRow,
  subuserClient,
} from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { defaultName } from './backups.service.ts';

// The backup API on the panel alone (reference §3.3 "Backups", Wings protocol §5.9): the node of
// these servers has no daemon, so everything that must reach one is in backups.daemon.test.ts; here
// rows are written straight to the database where a daemon would have made them.
let panel: TestPanel;
let node: Node;
let egg: Egg;
let owner: User;
let ownerClient: TestClient;
let strangerClient: TestClient;

const FORBIDDEN = ['AccessDeniedHttpException', 'This action is unauthorized.'] as const;
const NOT_FOUND = [
  'NotFoundHttpException',
  'The requested resource could not be found on the server.',
] as const;
const base = (s: Pick<Server, 'uuid_short'>) => `/api/client/servers/${s.uuid_short}/backups`;
const one = (s: Pick<Server, 'uuid_short'>, b: Pick<Backup, 'uuid'>) => `${base(s)}/${b.uuid}`;
const newServer = (values: Partial<Server> = {}) =>
  serverRow(panel.ctx, node, egg, owner.id, { backup_limit: 5, ...values });

/** A backup row as a daemon would have left it: `state` in progress, successful or failed. */
async function backupRow(
  server: Pick<Server, 'id'>,
  state: 'running' | 'ok' | 'failed',
  values: Partial<Backup> = {},
): Promise<Backup> {
  const at = values.created_at ?? new Date().toISOString();
  return panel.ctx.db.db
    .insertInto('backups')
    .values({
      server_id: server.id,
      uuid: randomUUID(),
      name: 'A backup',
      ignored_files: '[]',
      disk: 'wings',
      is_locked: 0,
      is_successful: state === 'ok' ? 1 : 0,
      checksum: state === 'ok' ? 'sha1:0123456789abcdef0123456789abcdef01234567' : null,
      bytes: state === 'ok' ? 1234 : 0,
      completed_at: state === 'running' ? null : at,
      deleted_at: null,
      created_at: at,
      updated_at: at,
      ...values,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const rowOf = (b: Pick<Backup, 'id'>) =>
  panel.ctx.db.db.selectFrom('backups').selectAll().where('id', '=', b.id).executeTakeFirstOrThrow();

/** `field|rule|detail` of every entry of a 422 body. */
const failures = (res: Res) => {
  expect(res.status, res.text).toBe(422);
  return (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}|${e.detail}`,
  );
};

beforeAll(async () => {
  panel = await startTestPanel({ BACKUP_THROTTLE_LIMIT: '2', BACKUP_THROTTLE_PERIOD: '600' });
  ({ node, egg } = await nodeAndEgg(panel.ctx, [46300, 46349]));
  owner = await panel.createUser();
  ownerClient = await panel.signedIn(owner);
  strangerClient = await panel.signedIn(await panel.createUser());
});
afterAll(async () => {
  await panel?.close();
});

describe('GET /backups', () => {
  it('pages the live backups (20, at most 50) with backup_count = the non-failed ones', async () => {
    const s = await newServer();
    const rows: Backup[] = [];
    for (let i = 0; i < 22; i++)
      rows.push(await backupRow(s, i === 0 ? 'failed' : i === 1 ? 'running' : 'ok'));
    await backupRow(s, 'ok', { deleted_at: new Date().toISOString() });
    const res = await ownerClient.get(base(s));
    expect(res.status, res.text).toBe(200);
    const body = clientBackupListSchema.parse(res.body);
    expect(body.data.map((d) => d.attributes.uuid)).toEqual(rows.slice(0, 20).map((r) => r.uuid));
    expect(body.meta.backup_count).toBe(21);
    expect(body.meta.pagination).toMatchObject({
      total: 22,
      count: 20,
      per_page: 20,
      current_page: 1,
      total_pages: 2,
    });
    expect(Object.keys(res.body.meta)).toEqual(['backup_count', 'pagination']);
    const second = await ownerClient.get(`${base(s)}?page=2`);
    expect(second.body.data.map((d: { attributes: { uuid: string } }) => d.attributes.uuid)).toEqual(
      rows.slice(20).map((r) => r.uuid),
    );
    const capped = await ownerClient.get(`${base(s)}?per_page=500`);
    expect(capped.body.meta.pagination.per_page).toBe(50);
    expect(capped.body.data).toHaveLength(22);
  });

  it('shows each backup as the reference object', async () => {
    const s = await newServer();
    const b = await backupRow(s, 'ok', { ignored_files: '["*.log","cache/"]', is_locked: 1 });
    const res = await ownerClient.get(one(s, b));
    expect(res.status, res.text).toBe(200);
    expect(clientBackupItemSchema.parse(res.body).attributes).toEqual({
      uuid: b.uuid,
      is_successful: true,
      is_locked: true,
      name: 'A backup',
      ignored_files: ['*.log', 'cache/'],
      checksum: 'sha1:0123456789abcdef0123456789abcdef01234567',
      bytes: 1234,
      created_at: `${b.created_at.slice(0, 19)}+00:00`,
      completed_at: `${b.completed_at!.slice(0, 19)}+00:00`,
    });
    expect(Object.keys(res.body.attributes)).toEqual([
      'uuid',
      'is_successful',
      'is_locked',
      'name',
      'ignored_files',
      'checksum',
      'bytes',
      'created_at',
      'completed_at',
    ]);
  });

  it('finds a backup only through its own server, and never a deleted one (404)', async () => {
    const s = await newServer();
    const other = await newServer();
    const theirs = await backupRow(other, 'ok');
    const gone = await backupRow(s, 'ok', { deleted_at: new Date().toISOString() });
    expectError(await ownerClient.get(one(s, theirs)), 404, ...NOT_FOUND);
    expectError(await ownerClient.get(one(s, gone)), 404, ...NOT_FOUND);
    expectError(await ownerClient.delete(one(s, theirs)), 404, ...NOT_FOUND);
    expect((await rowOf(theirs)).deleted_at).toBeNull();
  });

  it("answers 404 for another user's server on every route", async () => {
    const s = await newServer();
    const b = await backupRow(s, 'ok');
    for (const res of [
      await strangerClient.get(base(s)),
      await strangerClient.post(base(s), {}),
      await strangerClient.get(one(s, b)),
      await strangerClient.get(`${one(s, b)}/download`),
      await strangerClient.post(`${one(s, b)}/lock`),
      await strangerClient.post(`${one(s, b)}/restore`, { truncate: false }),
      await strangerClient.delete(one(s, b)),
    ]) {
      expect(res.status, res.text).toBe(404);
    }
    expect(await rowOf(b)).toMatchObject({ is_locked: 0, deleted_at: null });
  });
});

describe('permissions', () => {
  it('refuses each route without its backup.* permission (403), and nothing changes', async () => {
    const s = await newServer();
    const b = await backupRow(s, 'ok');
    const { client } = await subuserClient(panel, s, ['websocket.connect', 'file.read', 'backup.read']);
    const { client: blind } = await subuserClient(panel, s, ['websocket.connect', 'backup.create']);
    expectError(await blind.get(base(s)), 403, ...FORBIDDEN);
    expectError(await blind.get(one(s, b)), 403, ...FORBIDDEN);
    expectError(await client.post(base(s), {}), 403, ...FORBIDDEN);
    expectError(await client.get(`${one(s, b)}/download`), 403, ...FORBIDDEN);
    expectError(await client.post(`${one(s, b)}/lock`), 403, ...FORBIDDEN);
    expectError(await client.post(`${one(s, b)}/restore`, { truncate: false }), 403, ...FORBIDDEN);
    expectError(await client.delete(one(s, b)), 403, ...FORBIDDEN);
    expect((await client.get(base(s))).status).toBe(200);
    expect(await rowOf(b)).toMatchObject({ is_locked: 0, deleted_at: null });
    expect(
      (
        await panel.ctx.db.db
          .selectFrom('servers')
          .select('status')
          .where('id', '=', s.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBeNull();
  });

  it('answers 409 while the server restores a backup (reference "Server state check")', async () => {
    const s = await newServer({ status: 'restoring_backup' });
    expectError(
      await ownerClient.get(base(s)),
      409,
      'ServerStateConflictException',
      'This server is currently restoring from a backup, please try again later.',
    );
    const details = await ownerClient.get(`/api/client/servers/${s.uuid_short}`);
    expect(details.body.attributes.status).toBe('restoring_backup');
    expect(details.body.attributes.feature_limits.backups).toBe(5);
  });
});

describe('POST /backups', () => {
  it('validates the body (422) and creates nothing', async () => {
    const s = await newServer();
    expect(
      failures(
        await ownerClient.post(base(s), { name: 'x'.repeat(192), is_locked: 'maybe', ignored: ['a'] }),
      ),
    ).toEqual([
      'name|max|The name may not be greater than 191 characters.',
      'is_locked|boolean|The is locked field must be true or false.',
      'ignored|string|The ignored must be a string.',
    ]);
    expect((await ownerClient.get(base(s))).body.data).toEqual([]);
  });

  it('refuses at the limit (400 TooManyBackupsException); 0 allows none; failed ones do not count', async () => {
    const none = await newServer({ backup_limit: 0 });
    expectError(
      await ownerClient.post(base(none), {}),
      400,
      'TooManyBackupsException',
      'Cannot create a new backup, this server has reached its limit of 0 backups.',
    );
    const s = await newServer({ backup_limit: 2 });
    const old = new Date(Date.now() - 3600_000).toISOString();
    await backupRow(s, 'ok', { created_at: old });
    await backupRow(s, 'running', { created_at: old });
    await backupRow(s, 'failed', { created_at: old });
    expectError(
      await ownerClient.post(base(s), { name: 'one more' }),
      400,
      'TooManyBackupsException',
      'Cannot create a new backup, this server has reached its limit of 2 backups.',
    );
    expect((await ownerClient.get(base(s))).body.meta.pagination.total).toBe(3);
  });

  it('throttles: 2 non-failed backups per 600 s, deleted ones included → 429 with Retry-After', async () => {
    const s = await newServer({ backup_limit: 10 });
    const tenMinutesAgo = Date.now() - 590_000;
    await backupRow(s, 'ok', {
      created_at: new Date(tenMinutesAgo).toISOString(),
      deleted_at: new Date().toISOString(),
    });
    await backupRow(s, 'running');
    await backupRow(s, 'failed');
    const res = await ownerClient.post(base(s), {});
    expectError(
      res,
      429,
      'TooManyRequestsHttpException',
      'Only 2 backups may be generated within a 600 second span of time.',
    );
    // The oldest counted backup leaves the window in about 10 s.
    const retry = Number(res.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(11);
  });
});

describe('lock, delete and restore rules', () => {
  it('toggles the lock (backup.delete), logged as lock then unlock', async () => {
    const s = await newServer();
    const b = await backupRow(s, 'ok');
    const { client } = await subuserClient(panel, s, ['websocket.connect', 'backup.delete']);
    const locked = await client.post(`${one(s, b)}/lock`);
    expect(locked.status, locked.text).toBe(200);
    expect(locked.body.attributes.is_locked).toBe(true);
    const unlocked = await client.post(`${one(s, b)}/lock`);
    expect(unlocked.body.attributes.is_locked).toBe(false);
    const events = (await activityAbout(panel.ctx, { type: 'backup', id: b.id })).map((e) => e.event);
    expect(events).toEqual(['server:backup.lock', 'server:backup.unlock']);
  });

  it('refuses to delete a locked successful backup (400 BackupLockedException)', async () => {
    const s = await newServer();
    const b = await backupRow(s, 'ok', { is_locked: 1 });
    expectError(
      await ownerClient.delete(one(s, b)),
      400,
      'BackupLockedException',
      'Cannot delete a backup that is marked as locked.',
    );
    expect((await rowOf(b)).deleted_at).toBeNull();
  });

  it('refuses a restore of a backup that is running or failed (quirk 9 fixed), or on a server with a status', async () => {
    const s = await newServer();
    const running = await backupRow(s, 'running');
    const failed = await backupRow(s, 'failed');
    for (const b of [running, failed]) {
      expectError(
        await ownerClient.post(`${one(s, b)}/restore`, { truncate: true }),
        400,
        'BadRequestHttpException',
        'This backup cannot be restored at this time: not completed or failed.',
      );
    }
    const broken = await newServer({ status: 'reinstall_failed' });
    const ok = await backupRow(broken, 'ok');
    expectError(
      await ownerClient.post(`${one(broken, ok)}/restore`, { truncate: false }),
      400,
      'BadRequestHttpException',
      'This server is not currently in a state that allows for a backup to be restored.',
    );
    expect(failures(await ownerClient.post(`${one(s, running)}/restore`, {}))).toEqual([
      'truncate|required|The truncate field is required.',
    ]);
    const statuses = await panel.ctx.db.db
      .selectFrom('servers')
      .select('status')
      .where('id', 'in', [s.id, broken.id])
      .orderBy('id')
      .execute();
    expect(statuses.map((r) => r.status)).toEqual([null, 'reinstall_failed']);
  });
});

describe('GET /backups/{backup}/download', () => {
  it('signs a 15-minute daemon URL for the backup (claims backup_uuid, server_uuid)', async () => {
    const s = await newServer();
    const b = await backupRow(s, 'ok');
    const { client, user } = await subuserClient(panel, s, ['websocket.connect', 'backup.download']);
    const res = await client.get(`${one(s, b)}/download`);
    expect(res.status, res.text).toBe(200);
    const url = new URL(clientSignedUrlSchema.parse(res.body).attributes.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${nodeUrl(node)}/download/backup`);
    const claims = JSON.parse(
      Buffer.from(url.searchParams.get('token')!.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(claims).toMatchObject({ backup_uuid: b.uuid, server_uuid: s.uuid, user_uuid: user.uuid });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(900);
    const events = await activityAbout(panel.ctx, { type: 'backup', id: b.id });
    expect(events.map((e) => [e.event, e.actor])).toEqual([['server:backup.download', user.id]]);
  });

  it('refuses a backup without an archive: running or failed (400)', async () => {
    const s = await newServer();
    for (const b of [await backupRow(s, 'running'), await backupRow(s, 'failed')]) {
      expectError(
        await ownerClient.get(`${one(s, b)}/download`),
        400,
        'BadRequestHttpException',
        'This backup cannot be downloaded at this time: not completed or failed.',
      );
    }
  });
});

describe('remote reports (Wings protocol §5.9)', () => {
  it('completes a backup: checksum as <type>:<hex>, bytes, completed_at; logged as complete', async () => {
    const s = await newServer();
    const b = await backupRow(s, 'running', { is_locked: 1 });
    const remote = remoteClient(panel, node);
    const res = await remote.post(`/api/remote/backups/${b.uuid}`, {
      checksum: 'ab'.repeat(20),
      checksum_type: 'sha1',
      size: 4096,
      successful: true,
      parts: null,
    });
    expect(res.status, res.text).toBe(204);
    expect(await rowOf(b)).toMatchObject({
      is_successful: 1,
      is_locked: 1,
      checksum: `sha1:${'ab'.repeat(20)}`,
    });
    expect(Number((await rowOf(b)).bytes)).toBe(4096);
    expect((await rowOf(b)).completed_at).not.toBeNull();
    // A second report of a completed backup is refused.
    expectError(
      await remote.post(`/api/remote/backups/${b.uuid}`, {
        successful: false,
        checksum: '',
        checksum_type: '',
        size: 0,
        parts: null,
      }),
      400,
      'BadRequestHttpException',
      'Cannot update the status of a backup that is already marked as completed.',
    );
    expect((await rowOf(b)).is_successful).toBe(1);
    expect((await activityAbout(panel.ctx, { type: 'backup', id: b.id })).map((e) => e.event)).toEqual([
      'server:backup.complete',
    ]);
  });

  it('stores a failure: not successful, unlocked, no checksum', async () => {
    const s = await newServer();
    const b = await backupRow(s, 'running', { is_locked: 1 });
    const res = await remoteClient(panel, node).post(`/api/remote/backups/${b.uuid}`, {
      checksum: '',
      checksum_type: '',
      size: 0,
      successful: false,
      parts: null,
    });
    expect(res.status, res.text).toBe(204);
    expect(await rowOf(b)).toMatchObject({ is_successful: 0, is_locked: 0, checksum: null });
    expect((await rowOf(b)).completed_at).not.toBeNull();
    expect((await activityAbout(panel.ctx, { type: 'backup', id: b.id })).map((e) => e.event)).toEqual([
      'server:backup.fail',
    ]);
  });

  it('requires the checksum, its type and the size of a success (422)', async () => {
    const s = await newServer();
    const b = await backupRow(s, 'running');
    const res = await remoteClient(panel, node).post(`/api/remote/backups/${b.uuid}`, { successful: true });
    expect(failures(res)).toEqual([
      'checksum|required_if|The checksum field is required when successful is true.',
    ]);
    expect((await rowOf(b)).completed_at).toBeNull();
  });

  it('answers only the node of the backup’s server: another node 404, no token 401, a bad one 403', async () => {
    const s = await newServer();
    const b = await backupRow(s, 'running');
    const other = await otherNode();
    const report = {
      checksum: 'cd'.repeat(20),
      checksum_type: 'sha1',
      size: 1,
      successful: true,
      parts: null,
    };
    expectError(
      await remoteClient(panel, other).post(`/api/remote/backups/${b.uuid}`, report),
      404,
      ...NOT_FOUND,
    );
    expectError(
      await remoteClient(panel, other).post(`/api/remote/backups/${b.uuid}/restore`, { successful: true }),
      404,
      ...NOT_FOUND,
    );
    const anonymous = await ownerClient.post(`/api/remote/backups/${b.uuid}`, report);
    expect(anonymous.status).toBe(401);
    const forged = remoteClient(panel, node);
    forged.bearer = `${node.daemon_token_id}.not-the-token`;
    expect((await forged.post(`/api/remote/backups/${b.uuid}`, report)).status).toBe(403);
    expect((await rowOf(b)).completed_at).toBeNull();
  });

  it('a restore report puts the server back to normal, logged as restore-complete or restore-failed', async () => {
    const s = await newServer({ status: 'restoring_backup' });
    const b = await backupRow(s, 'ok');
    const remote = remoteClient(panel, node);
    expect((await remote.post(`/api/remote/backups/${b.uuid}/restore`, { successful: true })).status).toBe(
      204,
    );
    const status = async () =>
      (
        await panel.ctx.db.db
          .selectFrom('servers')
          .select('status')
          .where('id', '=', s.id)
          .executeTakeFirstOrThrow()
      ).status;
    expect(await status()).toBeNull();
    await panel.ctx.repositories.servers.update(s.id, { status: 'restoring_backup' });
    expect((await remote.post(`/api/remote/backups/${b.uuid}/restore`, { successful: false })).status).toBe(
      204,
    );
    expect(await status()).toBeNull();
    expect((await activityAbout(panel.ctx, { type: 'backup', id: b.id })).map((e) => e.event)).toEqual([
      'server:backup.restore-complete',
      'server:backup.restore-failed',
    ]);
  });
});

describe('POST /api/remote/servers/reset', () => {
  it('logs each restore the restarted daemon ended as restore-failed, then clears the status', async () => {
    const s = await newServer({ status: 'restoring_backup' });
    const calm = await newServer();
    expect((await remoteClient(panel, node).post('/api/remote/servers/reset')).status).toBe(204);
    const row = await panel.ctx.db.db
      .selectFrom('servers')
      .select('status')
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBeNull();
    expect(
      (await activityAbout(panel.ctx, { type: 'server', id: s.id })).map((e) => [e.event, e.properties]),
    ).toEqual([['server:backup.restore-failed', { interrupted: true }]]);
    expect(await activityAbout(panel.ctx, { type: 'server', id: calm.id })).toEqual([]);
  });
});

describe('prune (BACKUP_PRUNE_AGE)', () => {
  it('fails backups in progress for longer than the age and removes old failed ones', async () => {
    const s = await newServer({ backup_limit: 1 });
    const age = panel.ctx.config.backups.pruneAgeMinutes;
    const longAgo = new Date(Date.now() - (age + 5) * 60_000).toISOString();
    const stale = await backupRow(s, 'running', { created_at: longAgo, is_locked: 1 });
    const fresh = await backupRow(s, 'running');
    const oldFailure = await backupRow(s, 'failed', { created_at: longAgo });
    const kept = await backupRow(s, 'ok', { created_at: longAgo });
    await pruneBackups(panel.ctx);
    expect(await rowOf(stale)).toMatchObject({ is_successful: 0, is_locked: 0, deleted_at: null });
    expect((await rowOf(stale)).completed_at).not.toBeNull();
    expect((await rowOf(fresh)).completed_at).toBeNull();
    expect((await rowOf(oldFailure)).deleted_at).not.toBeNull();
    expect((await rowOf(kept)).deleted_at).toBeNull();
    // The stale one no longer counts nor downloads; a later pass removes it.
    const list = await ownerClient.get(base(s));
    expect(list.body.meta.backup_count).toBe(2);
    expect((await ownerClient.get(`${one(s, stale)}/download`)).status).toBe(400);
    await pruneBackups(panel.ctx, new Date(Date.now() + (age + 1) * 60_000));
    expect((await rowOf(stale)).deleted_at).not.toBeNull();
    expect((await rowOf(fresh)).completed_at).not.toBeNull();
    expect((await rowOf(kept)).deleted_at).toBeNull();
  });

  it('is safe to run twice at once (several panels): each row is changed once', async () => {
    const s = await newServer();
    const longAgo = new Date(
      Date.now() - (panel.ctx.config.backups.pruneAgeMinutes + 5) * 60_000,
    ).toISOString();
    const stale = await backupRow(s, 'running', { created_at: longAgo });
    const [a, b] = await Promise.all([pruneBackups(panel.ctx), pruneBackups(panel.ctx)]);
    expect(a.failed + b.failed).toBeGreaterThanOrEqual(1);
    const events = (await activityAbout(panel.ctx, { type: 'backup', id: stale.id })).map((e) => e.event);
    expect(events).toEqual(['server:backup.fail']);
  });
});

describe('defaultName', () => {
  it('is "Backup at YYYY-MM-DD HH:MM:SS" in the panel timezone', () => {
    expect(defaultName(new Date('2026-03-04T05:06:07Z'), 'UTC')).toBe('Backup at 2026-03-04 05:06:07');
    expect(defaultName(new Date('2026-03-04T23:06:07Z'), 'Europe/Berlin')).toBe(
      'Backup at 2026-03-05 00:06:07',
    );
  });
});

/** A second node (no daemon) to report as: the local node's row under another name and token id. */
function otherNode(): Promise<Node> {
  return panel.ctx.db.db
    .insertInto('nodes')
    .values({
      ...node,
      id: undefined,
      uuid: randomUUID(),
      name: 'Other',
      daemon_token_id: 'otherBackupNode1',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
