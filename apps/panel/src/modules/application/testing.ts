import type { User } from '../../db/types.ts';
import { TestClient } from '../../test-support/client.ts';
import type { TestPanel } from '../../test-support/panel.ts';
import { APPLICATION_RESOURCES, KEY_TYPE } from '../api-keys/api-keys.service.ts';
import type { AclResource } from './acl.ts';

/** Test helper: a bearer client with an application key of `owner` holding `permissions`. */
export async function applicationClient(
  panel: TestPanel,
  owner: User,
  permissions: Partial<Record<AclResource, number>>,
): Promise<TestClient> {
  const { key, secret } = await panel.ctx.services.apiKeys.create(
    owner,
    KEY_TYPE.application,
    { description: 'x' },
    permissions,
  );
  return TestClient.withKey(panel.url, key.identifier + secret);
}

/** Test helper: a bearer client with a client key of `owner`. */
export async function clientKeyClient(panel: TestPanel, owner: User): Promise<TestClient> {
  const { key, secret } = await panel.ctx.services.apiKeys.create(owner, KEY_TYPE.client, {
    description: 'x',
  });
  return TestClient.withKey(panel.url, key.identifier + secret);
}

export const FULL = 3;
export const READ = 1;
/** Read and write on every application resource: the most an application key can hold. */
export const ALL_APPLICATION_RIGHTS = Object.fromEntries(APPLICATION_RESOURCES.map((r) => [r, FULL]));

/**
 * A root admin's application key with every right and their client key: the keys a session-only
 * route (settings, API keys, overview, node setup tokens) must refuse all the same.
 */
export async function everyKeyOf(panel: TestPanel, admin: User): Promise<TestClient[]> {
  return [await applicationClient(panel, admin, ALL_APPLICATION_RIGHTS), await clientKeyClient(panel, admin)];
}

/** `2024-05-01T12:34:56+00:00` */
export const UTC_ATOM = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/u;

/**
 * Test helper: a server row written straight to the database (the servers' own API is another
 * module), so rules that depend on servers existing can be tested here.
 */
export async function insertServer(
  panel: TestPanel,
  opts: { ownerId: number; nodeId: number; allocationId: number; memory?: number; disk?: number },
): Promise<number> {
  const db = panel.ctx.db.db;
  const now = new Date().toISOString();
  const suffix = Math.random().toString(36).slice(2, 10).padEnd(8, '0');
  const nest = await db
    .insertInto('nests')
    .values({
      uuid: crypto.randomUUID(),
      author: 'a@example.com',
      name: `n${suffix}`,
      description: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const egg = await db
    .insertInto('eggs')
    .values({
      uuid: crypto.randomUUID(),
      nest_id: nest.id,
      author: 'a@example.com',
      name: 'egg',
      description: null,
      features: '[]',
      docker_images: '{}',
      file_denylist: '[]',
      config_files: '{}',
      config_startup: '{}',
      config_logs: '{}',
      script_entry: 'bash',
      script_is_privileged: 1,
      update_url: null,
      config_stop: null,
      config_from: null,
      startup: 'run',
      script_container: 'debian',
      script_install: null,
      copy_script_from: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const server = await db
    .insertInto('servers')
    .values({
      external_id: null,
      uuid: crypto.randomUUID(),
      uuid_short: suffix,
      node_id: opts.nodeId,
      name: 'server',
      description: '',
      skip_scripts: 0,
      oom_disabled: 1,
      backup_limit: 0,
      status: null,
      owner_id: opts.ownerId,
      memory: opts.memory ?? 512,
      swap: 0,
      disk: opts.disk ?? 1024,
      io: 500,
      cpu: 0,
      threads: null,
      allocation_id: opts.allocationId,
      nest_id: nest.id,
      egg_id: egg.id,
      startup: 'run',
      image: 'img',
      allocation_limit: null,
      database_limit: null,
      installed_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('allocations')
    .set({ server_id: server.id })
    .where('id', '=', opts.allocationId)
    .execute();
  return server.id;
}

/** Test helper: a location, a node in it (through the services) and one allocation on it. */
export async function insertNode(
  panel: TestPanel,
  opts: { memory?: number; disk?: number; port?: number } = {},
): Promise<{ locationId: number; nodeId: number; allocationId: number }> {
  const { services, db } = { services: panel.ctx.services, db: panel.ctx.db.db };
  const actor = { userId: null, apiKeyId: null, ip: null };
  const suffix = Math.random().toString(36).slice(2, 10);
  const location = await services.locations.create({ short: `loc-${suffix}` }, actor);
  const node = await services.nodes.create(
    {
      name: `node-${suffix}`,
      location_id: location.id,
      fqdn: 'node.example.com',
      scheme: 'https',
      memory: opts.memory ?? 4096,
      memory_overallocate: 0,
      disk: opts.disk ?? 8192,
      disk_overallocate: 0,
      daemon_listen: 8080,
      daemon_sftp: 2022,
    },
    actor,
  );
  await services.allocations.create(node.id, { ip: '10.0.0.1', ports: [String(opts.port ?? 25565)] }, actor);
  const allocation = await db
    .selectFrom('allocations')
    .select('id')
    .where('node_id', '=', node.id)
    .executeTakeFirstOrThrow();
  return { locationId: location.id, nodeId: node.id, allocationId: allocation.id };
}
