import type { Logger } from 'pino';
import type { Server } from '../../db/types.ts';
import type { DaemonClient } from '../../daemon-client/daemon-client.ts';
import { errors, ValidationFailed } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { isTrue } from '../../lib/flags.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { EggsRepository } from '../eggs/eggs.repository.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import { MAX_ID } from '../application/urls.ts';
import { DOCKER_IMAGE_RULE, envString, findRow, validateVariables } from './server-creation.service.ts';
import type { ServersRepository } from './servers.repository.ts';
import type { DeauthorizeService } from '../deauthorize/deauthorize.service.ts';

const LIMIT_RULES = {
  memory: 'required|numeric|min:0|max:2147483647',
  swap: 'required|numeric|min:-1|max:2147483647',
  io: 'required|numeric|between:10,1000',
  cpu: 'required|numeric|min:0|max:2147483647',
  disk: 'required|numeric|min:0|max:2147483647',
  threads: 'sometimes|nullable|string|regex:/^[0-9-,]+$/',
};

const BUILD_LABELS = {
  add_allocations: 'allocations to add',
  remove_allocations: 'allocations to remove',
  'feature_limits.databases': 'Database Limit',
  'feature_limits.allocations': 'Allocation Limit',
  'feature_limits.backups': 'Backup Limit',
};

type Num = number | string;
interface BuildInput {
  allocation: Num;
  limits?: Record<keyof typeof LIMIT_RULES, Num | null>;
  memory?: Num;
  swap?: Num;
  io?: Num;
  cpu?: Num;
  disk?: Num;
  threads?: string | null;
  oom_disabled?: boolean | number;
  add_allocations?: Num[];
  remove_allocations?: Num[];
  feature_limits: { databases: Num | null; allocations?: Num | null; backups: Num | null };
}

const intOrNull = (v: Num | null | undefined) => (v === null || v === undefined ? null : Number(v));

/** PATCH details / build / startup of the application API (reference §5.5). */
export class ServerUpdateService {
  constructor(
    private readonly servers: ServersRepository,
    private readonly users: UsersRepository,
    private readonly eggs: EggsRepository,
    private readonly daemon: DaemonClient,
    private readonly activity: ActivityService,
    private readonly log: Logger,
    private readonly deauthorize: DeauthorizeService,
  ) {}

  /**
   * Tells the daemon; a daemon that is down learns the change at its next sync or start. Also used
   * by the client API's allocation changes.
   */
  async sync(server: Server): Promise<void> {
    const node = await this.servers.findNode(server.node_id);
    if (!node) return;
    await this.daemon.sync(node, server.uuid).catch((err: unknown) => {
      this.log.warn({ err, server: server.uuid }, 'could not sync the server with its daemon');
    });
  }

  /** Omitted `external_id` and `description` keep their values (the original clears them). */
  async details(server: Server, body: unknown, actor: ActivityActor): Promise<void> {
    const input = check<{
      name: string;
      user: Num;
      external_id?: string | null;
      description?: string | null;
    }>(
      body,
      {
        name: 'required|string|between:1,191',
        user: 'required|integer',
        external_id: 'sometimes|nullable|string|between:1,191',
        description: 'sometimes|nullable|string',
      },
      { user: 'User ID', name: 'Server Name' },
    );
    const owner = await findRow(Number(input.user), (id) => this.users.findById(id));
    if (!owner)
      throw new ValidationFailed([
        { field: 'user', rule: 'exists', detail: 'The selected User ID is invalid.' },
      ]);
    if (input.external_id && (await this.servers.externalIdTaken(input.external_id, server.id))) {
      throw new ValidationFailed([
        { field: 'external_id', rule: 'unique', detail: 'The external id has already been taken.' },
      ]);
    }
    await this.servers.update(server.id, {
      name: input.name,
      owner_id: owner.id,
      external_id: input.external_id === undefined ? server.external_id : input.external_id,
      description: input.description === undefined ? server.description : (input.description ?? ''),
      updated_at: nowIso(),
    });
    if (owner.id !== server.owner_id) {
      // The previous owner's consoles and SFTP sessions end at once, their tokens are refused.
      const node = await this.servers.findNode(server.node_id);
      const previous = await this.users.findById(server.owner_id);
      if (node && previous) await this.deauthorize.onServer(previous, server, node);
    }
    await this.activity.log('server:details.update', actor, [{ type: 'server', id: server.id }]);
  }

  async build(server: Server, body: unknown, actor: ActivityActor): Promise<void> {
    const nested = typeof body === 'object' && body !== null && 'limits' in body && body.limits != null;
    const limitRules = Object.fromEntries(
      Object.entries(LIMIT_RULES).map(([k, rule]) => [nested ? `limits.${k}` : k, rule]),
    );
    const input = check<BuildInput>(
      body,
      {
        allocation: 'required|integer',
        ...(nested ? { limits: 'array' } : {}),
        ...limitRules,
        oom_disabled: 'sometimes|boolean',
        add_allocations: 'sometimes|array',
        'add_allocations.*': 'integer',
        remove_allocations: 'sometimes|array',
        'remove_allocations.*': 'integer',
        feature_limits: 'required|array',
        'feature_limits.databases': 'present|nullable|integer|min:0|max:2147483647',
        'feature_limits.allocations': 'sometimes|nullable|integer|min:0|max:2147483647',
        'feature_limits.backups': 'present|nullable|integer|min:0|max:2147483647',
      },
      BUILD_LABELS,
    );
    const limits = nested && input.limits ? input.limits : (input as unknown as Record<string, Num | null>);
    const add = (input.add_allocations ?? []).map(Number);
    const remove = (input.remove_allocations ?? [])
      .map(Number)
      .filter((id) => !add.includes(id) && id <= MAX_ID);
    const candidates = await this.servers.findAllocations(add);
    const addable = candidates
      .filter((a) => a.node_id === server.node_id && a.server_id === null)
      .map((a) => a.id);
    const current = (await this.servers.bundle(server)).allocations.map((a) => a.id);
    const after = new Set([...current.filter((id) => !remove.includes(id)), ...addable]);
    let primary = Number(input.allocation);
    if (remove.includes(server.allocation_id) && primary === server.allocation_id) {
      const fallback = addable[0];
      if (fallback === undefined) {
        throw errors.display(
          'You are attempting to delete the default allocation for this server but there is no fallback allocation to use.',
        );
      }
      primary = fallback;
    }
    if (!after.has(primary))
      throw errors.display('The requested default allocation is not currently assigned to this server.');
    await this.servers.updateBuild(server.id, {
      values: {
        allocation_id: primary,
        // `numeric` admits fractions; the columns are integers.
        memory: Math.round(Number(limits.memory)),
        swap: Math.round(Number(limits.swap)),
        io: Math.round(Number(limits.io)),
        cpu: Math.round(Number(limits.cpu)),
        disk: Math.round(Number(limits.disk)),
        threads: (limits.threads as string | null | undefined) ?? null,
        oom_disabled:
          input.oom_disabled === undefined ? server.oom_disabled : isTrue(input.oom_disabled) ? 1 : 0,
        database_limit: intOrNull(input.feature_limits.databases),
        allocation_limit: intOrNull(input.feature_limits.allocations),
        backup_limit: intOrNull(input.feature_limits.backups) ?? 0,
        updated_at: nowIso(),
      },
      assign: addable,
      release: remove,
    });
    await this.sync(server);
    await this.activity.log('server:build.update', actor, [{ type: 'server', id: server.id }]);
  }

  /** Variables missing from a non-empty `environment` keep their values (the original blanks them). */
  async startup(server: Server, body: unknown, actor: ActivityActor): Promise<void> {
    const input = check<{
      startup: string;
      environment: Record<string, unknown>;
      egg: Num;
      image: string;
      skip_scripts: unknown;
    }>(body, {
      startup: 'required|string',
      environment: 'present|array',
      egg: 'required|integer',
      image: `required|string|max:191|${DOCKER_IMAGE_RULE}`,
      skip_scripts: 'present|boolean',
    });
    const egg = await findRow(Number(input.egg), (id) => this.eggs.findEgg(id));
    if (!egg)
      throw new ValidationFailed([{ field: 'egg', rule: 'exists', detail: 'The selected egg is invalid.' }]);
    const values: { variableId: number; value: string }[] = [];
    if (Object.keys(input.environment).length > 0) {
      const variables = await this.eggs.variables(egg.id);
      const current = new Map(
        (await this.servers.variableValues(server.id, egg.id)).map((v) => [v.variable.env_variable, v.value]),
      );
      const merged: Record<string, unknown> = {};
      for (const v of variables)
        merged[v.env_variable] = input.environment[v.env_variable] ?? current.get(v.env_variable) ?? '';
      validateVariables(variables, merged);
      for (const v of variables) values.push({ variableId: v.id, value: envString(merged[v.env_variable]) });
    }
    await this.servers.updateStartup(
      server.id,
      {
        startup: input.startup,
        image: input.image,
        egg_id: egg.id,
        nest_id: egg.nest_id,
        skip_scripts: isTrue(input.skip_scripts) ? 1 : 0,
        updated_at: nowIso(),
      },
      values,
    );
    await this.sync(server);
    await this.activity.log('server:startup.update', actor, [{ type: 'server', id: server.id }]);
  }
}
