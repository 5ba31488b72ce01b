import { DATABASE_ENGINES } from '@talon/shared';
import type { DatabaseHost } from '../../db/types.ts';
import { errors, fieldError, HttpError } from '../../http/errors.ts';
import { decrypt, encrypt } from '../../lib/crypto.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { ListParams } from '../application/listing.ts';
import { exists, unique, validateBody, type DbRule } from '../application/validation.ts';
import { DatabaseHostError, driverFor, type HostCredentials } from './engines/index.ts';
import type { DatabaseHostsRepository, DatabaseHostWithNodes } from './database-hosts.repository.ts';

const COMMON = {
  name: 'required|string|max:191',
  host: 'required|string|max:191',
  port: 'required|integer|between:1,65535',
  username: 'required|string|max:191',
  engine: `sometimes|string|in:${DATABASE_ENGINES.join(',')}`,
  max_databases: 'nullable|integer|min:0',
  node_ids: 'sometimes|nullable|array',
  'node_ids.*': 'integer|min:1',
};
const CREATE_RULES = { ...COMMON, password: 'nullable|string|max:191' };
// Updates replace the whole host like the reference's PATCHes, except the password: left out (or
// empty), the stored one is kept, since it is never shown and cannot be sent back.
const UPDATE_RULES = CREATE_RULES;

interface HostBody {
  name: string;
  host: string;
  port: number | string;
  username: string;
  password?: string | null;
  engine?: string;
  max_databases?: number | string | null;
  node_ids?: (number | string)[] | null;
}

/** The 4xx of a host the panel cannot use, naming the problem (unreachable, access, privileges). */
export function hostRefused(e: DatabaseHostError): HttpError {
  return new HttpError(400, 'DatabaseHostConnectionException', e.message);
}

/**
 * Database hosts (operator side). A host is stored only after the panel connected with its
 * credentials and proved it can create databases and users; its password is encrypted with the app
 * key and never returned.
 */
export class DatabaseHostsService {
  constructor(
    private readonly repo: DatabaseHostsRepository,
    private readonly activity: ActivityService,
    private readonly appKey: Buffer,
  ) {}

  list(page: number, perPage: number, search: ListParams['search'] = null) {
    return this.repo.list(perPage, (page - 1) * perPage, search);
  }

  async get(id: number): Promise<DatabaseHostWithNodes> {
    const found = await this.repo.find(id);
    if (!found) throw errors.notFound();
    return found;
  }

  credentials(host: DatabaseHost): HostCredentials {
    return {
      host: host.host,
      port: host.port,
      username: host.username,
      password: decrypt(this.appKey, host.password),
    };
  }

  async create(body: unknown, actor: ActivityActor): Promise<DatabaseHostWithNodes> {
    const input = await this.validate(body, CREATE_RULES);
    const engine = input.engine ?? 'mysql';
    const password = input.password ?? '';
    await this.prove(engine, {
      host: input.host,
      port: Number(input.port),
      username: input.username,
      password,
    });
    const at = nowIso();
    const id = await this.repo.insert(
      {
        name: input.name,
        engine,
        host: input.host,
        port: Number(input.port),
        username: input.username,
        password: encrypt(this.appKey, password),
        max_databases: input.max_databases == null ? null : Number(input.max_databases),
        created_at: at,
        updated_at: at,
      },
      nodeList(input.node_ids),
    );
    await this.activity.log('database-host:create', actor, [], { id, name: input.name, host: input.host });
    return this.get(id);
  }

  async update(id: number, body: unknown, actor: ActivityActor): Promise<DatabaseHostWithNodes> {
    const { host: current } = await this.get(id);
    const input = await this.validate(body, UPDATE_RULES, id);
    const engine = input.engine ?? current.engine;
    if (!input.password && movesAway(current, { ...input, engine })) {
      throw fieldError('password', PASSWORD_AGAIN, 'required');
    }
    const password = input.password || this.credentials(current).password;
    await this.prove(engine, {
      host: input.host,
      port: Number(input.port),
      username: input.username,
      password,
    });
    await this.repo.update(
      id,
      {
        name: input.name,
        engine,
        host: input.host,
        port: Number(input.port),
        username: input.username,
        password: encrypt(this.appKey, password),
        max_databases: input.max_databases == null ? null : Number(input.max_databases),
        updated_at: nowIso(),
      },
      nodeList(input.node_ids),
    );
    await this.activity.log('database-host:update', actor, [], { id, name: input.name });
    return this.get(id);
  }

  async delete(id: number, actor: ActivityActor): Promise<void> {
    const { host } = await this.get(id);
    if ((await this.repo.databaseCount(id)) > 0) {
      throw errors.display(
        'Cannot delete a database host that still has databases: delete its databases first.',
        'HasActiveDatabasesException',
      );
    }
    await this.repo.delete(id);
    await this.activity.log('database-host:delete', actor, [], { id, name: host.name });
  }

  /** Connects with the credentials and runs a throwaway create/grant/drop; 400 naming the problem. */
  private async prove(engine: string, credentials: HostCredentials): Promise<void> {
    try {
      await driverFor(engine).check(credentials);
    } catch (e) {
      if (e instanceof DatabaseHostError) throw hostRefused(e);
      throw e;
    }
  }

  private validate(body: unknown, rules: Record<string, string>, exceptId?: number): Promise<HostBody> {
    const dbRules: Record<string, DbRule> = {
      name: unique(async (v) => {
        const other = await this.repo.findByName(String(v));
        return other !== undefined && other.id !== exceptId;
      }),
    };
    const nodeIds = (body as { node_ids?: unknown } | null)?.node_ids;
    if (Array.isArray(nodeIds) && nodeIds.every((n) => Number.isInteger(Number(n)))) {
      dbRules.node_ids = exists(async () => {
        const wanted = [...new Set(nodeIds.map(Number))];
        return (await this.repo.existingNodeIds(wanted)).length === wanted.length;
      });
    }
    return validateBody<HostBody>(body, rules, { node_ids: 'nodes' }, dbRules);
  }
}

/**
 * The stored admin password goes only to the address and account it was given for: the connection
 * check of an update that names another host, port, engine or username would hand it to whoever
 * listens there (issue 23), so such an update must bring the password again.
 */
const PASSWORD_AGAIN = 'The password field is required when the host, port, engine or username changes.';

function movesAway(current: DatabaseHost, next: HostBody & { engine: string }): boolean {
  return (
    next.host !== current.host ||
    Number(next.port) !== current.port ||
    next.engine !== current.engine ||
    next.username !== current.username
  );
}

function nodeList(ids: HostBody['node_ids']): number[] {
  return [...new Set((ids ?? []).map(Number))];
}
