import {
  API_APPLICATION_REMOTE,
  API_CLIENT_REMOTE,
  API_DATABASE_NAME,
  DATABASE_API_MESSAGES,
  DATABASE_NAME_MAX,
  prefixedDatabaseName,
} from '@talon/shared/validation/databases';
import { can, type CustomRule } from '@talon/shared';
import { randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.ts';
import type { DatabaseHost, Server } from '../../db/types.ts';
import { errors, fieldError, HttpError } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { decrypt, encrypt, randomAlnum } from '../../lib/crypto.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import { exists, unique, validateBody } from '../application/validation.ts';
import type { PermittedServerAccess } from '../servers/server-access.ts';
import type { DatabaseHostsRepository } from './database-hosts.repository.ts';
import type { DatabaseHostsService } from './database-hosts.service.ts';
import type { DatabaseIds } from './database-ids.ts';
import type { DatabaseWithHost, ServerDatabasesRepository } from './databases.repository.ts';
import { DatabaseHostError, driverFor, type DatabaseOnHost } from './engines/index.ts';

const M = DATABASE_API_MESSAGES;

const pattern = (re: RegExp, message = 'The :attribute format is invalid.'): CustomRule => ({
  name: 'regex',
  check: (v) => (typeof v === 'string' && re.test(v) ? null : message),
});
// `alpha_dash` limited to ASCII, plus the period the spec's form allows (the name becomes an identifier on the host).
const ALPHA_DASH: CustomRule = {
  name: 'alpha_dash',
  check: (v) =>
    typeof v === 'string' && API_DATABASE_NAME.test(v)
      ? null
      : 'The :attribute may only contain letters, numbers, and dashes.',
};

const CLIENT_RULES = {
  database: ['required', 'string', ALPHA_DASH, 'min:3', `max:${DATABASE_NAME_MAX}`],
  remote: ['required', 'string', 'max:191', pattern(API_CLIENT_REMOTE)],
};
const APPLICATION_RULES = {
  database: ['required', 'string', ALPHA_DASH, `between:1,${DATABASE_NAME_MAX}`],
  remote: ['required', 'string', pattern(API_APPLICATION_REMOTE)],
  host: 'required|integer',
};
const APPLICATION_LABELS = {
  host: 'Database Host Server ID',
  remote: 'Remote Connection String',
  database: 'Database Name',
};

const SPECIALS = '!@=.+^';

/** 24 random letters and digits with a few positions replaced by `! @ = . + ^` (reference §3.3). */
export function databasePassword(): string {
  const chars = randomAlnum(24).split('');
  const count = 2 + randomInt(3);
  for (let i = 0; i < count; i++)
    chars[randomInt(chars.length)] = SPECIALS[randomInt(SPECIALS.length)] ?? '!';
  return chars.join('');
}

/** The 5xx of a host that failed while the panel worked on it; nothing was kept on either side. */
function hostFailed(e: DatabaseHostError, what: string): HttpError {
  return new HttpError(
    e.problem === 'unreachable' ? 503 : 502,
    'DatabaseHostException',
    `The database could not be ${what}: ${e.message}`,
  );
}

/**
 * Databases of game servers (reference §3.3 "Databases", §5.6). The row and the real database are
 * kept in step: the host is changed first, the row is written after, and a failed row write drops
 * what the host just made.
 */
export class ServerDatabasesService {
  constructor(
    private readonly repo: ServerDatabasesRepository,
    private readonly hostsRepo: DatabaseHostsRepository,
    private readonly hosts: DatabaseHostsService,
    private readonly activity: ActivityService,
    readonly ids: DatabaseIds,
    /** read on each request: `clientDatabases` and the app key */
    private readonly settings: Pick<Config, 'clientDatabases' | 'appKey'>,
    private readonly log: Logger,
  ) {}

  list(serverId: number): Promise<DatabaseWithHost[]> {
    return this.repo.listForServer(serverId);
  }

  listOnHost(hostId: number) {
    return this.repo.listForHost(hostId);
  }

  /** `{database}` of a client path: a Hashids or numeric id of this server's database, else 404. */
  async findForServer(server: Pick<Server, 'id'>, param: string): Promise<DatabaseWithHost> {
    const id = this.ids.decode(param);
    const found = id === null ? undefined : await this.repo.find(id);
    if (!found) throw errors.notFound();
    if (found.database.server_id !== server.id)
      throw errors.notFound('The requested resource was not found for this server.');
    return found;
  }

  /** `{db}` of an application path: any database by numeric id (not checked against the server; reference quirk 11). */
  async findById(param: string): Promise<DatabaseWithHost> {
    const found = /^\d{1,9}$/u.test(param) ? await this.repo.find(Number(param)) : undefined;
    if (!found) throw errors.notFound();
    return found;
  }

  password(row: DatabaseWithHost): string {
    return decrypt(this.settings.appKey, row.database.password);
  }

  /** The password for the `password` include: null (null resource) without `database.view_password`. */
  visiblePassword(access: PermittedServerAccess, row: DatabaseWithHost): string | null {
    return can(access.permissions, 'database.view_password') ? this.password(row) : null;
  }

  async createForClient(
    access: PermittedServerAccess,
    body: unknown,
    actor: ActivityActor,
  ): Promise<DatabaseWithHost> {
    const { server } = access;
    const input = check<{ database: string; remote: string }>(body, CLIENT_RULES);
    const name = prefixedDatabaseName(server.id, input.database);
    if (await this.repo.nameTaken(server.id, name)) throw fieldError('database', M.nameTaken, 'unique');
    const host = await this.chooseHost(server.node_id);
    if (!this.settings.clientDatabases.enabled) {
      throw new HttpError(400, 'DatabaseClientFeatureNotEnabledException', M.disabled);
    }
    return this.create(server, host, name, input.remote, actor);
  }

  async createForApplication(server: Server, body: unknown, actor: ActivityActor): Promise<DatabaseWithHost> {
    const data = (body ?? {}) as { database?: unknown };
    const input = await validateBody<{ database: string; remote: string; host: number | string }>(
      body,
      APPLICATION_RULES,
      APPLICATION_LABELS,
      {
        database: unique(async () =>
          this.repo.nameTaken(server.id, prefixedDatabaseName(server.id, String(data.database))),
        ),
        host: exists(async (v) => (await this.hostsRepo.find(Number(v))) !== undefined),
      },
    );
    if (!this.settings.clientDatabases.enabled) {
      throw new HttpError(400, 'DatabaseClientFeatureNotEnabledException', M.disabled);
    }
    const found = await this.hostsRepo.find(Number(input.host));
    if (!found) throw errors.notFound();
    return this.create(
      server,
      found.host,
      prefixedDatabaseName(server.id, input.database),
      input.remote,
      actor,
    );
  }

  async rotatePassword(row: DatabaseWithHost, actor: ActivityActor): Promise<DatabaseWithHost> {
    const password = databasePassword();
    try {
      await driverFor(row.host.engine).setPassword(this.hosts.credentials(row.host), onHost(row), password);
    } catch (e) {
      if (e instanceof DatabaseHostError) throw hostFailed(e, 'given a new password');
      throw e;
    }
    const at = nowIso();
    await this.repo.setPassword(row.database.id, encrypt(this.settings.appKey, password), at);
    await this.activity.log(
      'server:database.rotate-password',
      actor,
      [{ type: 'server', id: row.database.server_id }],
      {
        name: row.database.database,
      },
    );
    return {
      host: row.host,
      database: { ...row.database, password: encrypt(this.settings.appKey, password), updated_at: at },
    };
  }

  async delete(row: DatabaseWithHost, actor: ActivityActor): Promise<void> {
    try {
      await driverFor(row.host.engine).drop(this.hosts.credentials(row.host), onHost(row));
    } catch (e) {
      if (e instanceof DatabaseHostError) throw hostFailed(e, 'deleted');
      throw e;
    }
    await this.repo.delete(row.database.id);
    await this.activity.log(
      'server:database.delete',
      actor,
      [{ type: 'server', id: row.database.server_id }],
      {
        name: row.database.database,
      },
    );
  }

  /**
   * Before a server is deleted: drops each of its databases on its host, then the rows. A host
   * failure stops the deletion unless `force` (then the rows go and the failure is logged), as in
   * the reference §5.5.
   */
  async dropAllForServer(server: Pick<Server, 'id'>, force: boolean): Promise<void> {
    for (const row of await this.repo.listForServer(server.id)) {
      try {
        await driverFor(row.host.engine).drop(this.hosts.credentials(row.host), onHost(row));
      } catch (e) {
        if (!force) throw e instanceof DatabaseHostError ? hostFailed(e, 'deleted') : e;
        this.log.warn(
          { err: e, database: row.database.database },
          'database of a deleted server left on its host',
        );
      }
      await this.repo.delete(row.database.id);
    }
  }

  /**
   * Hosts serving the server's node first; any host only when random placement is allowed; hosts
   * at their `max_databases` are skipped. Random among the candidates, as the reference does.
   */
  private async chooseHost(nodeId: number): Promise<DatabaseHost> {
    let candidates = await this.usable(await this.hostsRepo.forNode(nodeId));
    if (candidates.length === 0 && this.settings.clientDatabases.allowRandom)
      candidates = await this.usable(await this.hostsRepo.all());
    const chosen = candidates[randomInt(Math.max(1, candidates.length))];
    if (!chosen) throw errors.display(M.noHost, 'NoSuitableDatabaseHostException');
    return chosen;
  }

  private async usable(hosts: DatabaseHost[]): Promise<DatabaseHost[]> {
    const out: DatabaseHost[] = [];
    for (const h of hosts) {
      if (h.max_databases === null || (await this.repo.countForHost(h.id)) < h.max_databases) out.push(h);
    }
    return out;
  }

  /**
   * The row is written first, inside a transaction that checks the server's `database_limit`, the
   * host's `max_databases` and the name with both rows locked (parallel requests cannot all pass
   * the count: CVE-2025-69198 / CVE-2026-35202); only then is the database made on the host, and a
   * host failure deletes the row again. A request that loses the race never touches the host.
   */
  private async create(
    server: Server,
    host: DatabaseHost,
    name: string,
    remote: string,
    actor: ActivityActor,
  ): Promise<DatabaseWithHost> {
    const password = databasePassword();
    const target: DatabaseOnHost = {
      database: name,
      username: `u${server.id}_${randomAlnum(10)}`,
      remote,
      maxConnections: 0,
    };
    const at = nowIso();
    const database = await this.repo.insertChecked(
      {
        server_id: server.id,
        database_host_id: host.id,
        database: name,
        username: target.username,
        remote,
        password: encrypt(this.settings.appKey, password),
        max_connections: 0,
        created_at: at,
        updated_at: at,
      },
      async (tx) => {
        if (server.database_limit !== null && (await tx.countForServer(server.id)) >= server.database_limit)
          throw errors.display(M.tooMany, 'TooManyDatabasesException');
        if (host.max_databases !== null && (await tx.countForHost(host.id)) >= host.max_databases)
          throw errors.display(M.noHost, 'NoSuitableDatabaseHostException');
        if (await tx.nameTaken(server.id, name))
          throw errors.display(M.duplicate, 'DuplicateDatabaseNameException');
      },
    );
    try {
      await driverFor(host.engine).create(this.hosts.credentials(host), target, password);
    } catch (e) {
      // No row without a database: the host refused or failed, so the place is given back.
      await this.repo.delete(database.id);
      if (e instanceof DatabaseHostError) throw hostFailed(e, 'created');
      throw e;
    }
    await this.activity.log('server:database.create', actor, [{ type: 'server', id: server.id }], { name });
    return { database, host };
  }
}

function onHost({ database }: DatabaseWithHost): DatabaseOnHost {
  return {
    database: database.database,
    username: database.username,
    remote: database.remote,
    maxConnections: database.max_connections,
  };
}
