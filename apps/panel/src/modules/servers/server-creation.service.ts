import { randomUUID } from 'node:crypto';
import { forbiddenEnvironmentMessage, splitVariableRules, validate } from '@talon/shared';
import type { Allocation, Egg, EggVariable, Server } from '../../db/types.ts';
import type { DaemonClient } from '../../daemon-client/daemon-client.ts';
import { errors, HttpError, ValidationFailed } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { isTrue } from '../../lib/flags.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { EggsRepository } from '../eggs/eggs.repository.ts';
import type { NodesService } from '../nodes/nodes.service.ts';
import { MAX_ID } from '../application/urls.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import { AllocationTakenError, type ServersRepository } from './servers.repository.ts';

export const DOCKER_IMAGE_RULE = 'regex:/^~?[\\w.\\/\\-:@ ]*$/';

const CREATE_RULES = {
  name: 'required|string|between:1,191',
  user: 'required|integer',
  egg: 'required|integer',
  docker_image: `required|string|max:191|${DOCKER_IMAGE_RULE}`,
  startup: 'required|string',
  environment: 'present|array',
  limits: 'required|array',
  // The upper bounds are the integer columns' (the reference has none; a larger value cannot be stored).
  'limits.memory': 'required|numeric|min:0|max:2147483647',
  'limits.swap': 'required|numeric|min:-1|max:2147483647',
  'limits.disk': 'required|numeric|min:0|max:2147483647',
  'limits.io': 'required|numeric|between:10,1000',
  'limits.cpu': 'required|numeric|min:0|max:2147483647',
  'limits.threads': 'sometimes|nullable|string|regex:/^[0-9-,]+$/',
  feature_limits: 'required|array',
  'feature_limits.databases': 'present|nullable|integer|min:0|max:2147483647',
  'feature_limits.allocations': 'sometimes|nullable|integer|min:0|max:2147483647',
  'feature_limits.backups': 'present|nullable|integer|min:0|max:2147483647',
  external_id: 'sometimes|nullable|string|between:1,191',
  description: 'sometimes|nullable|string',
  skip_scripts: 'sometimes|boolean',
  oom_disabled: 'sometimes|boolean',
  start_on_completion: 'sometimes|boolean',
};

const LABELS = { user: 'User ID', name: 'Server Name' };

/** The row of an id from a request, or undefined for an id no row can have (PostgreSQL refuses those). */
export function findRow<T>(id: number, find: (id: number) => Promise<T | undefined>): Promise<T | undefined> {
  return Number.isInteger(id) && id > 0 && id <= MAX_ID ? find(id) : Promise.resolve(undefined);
}

interface CreateInput {
  name: string;
  user: number | string;
  egg: number | string;
  docker_image: string;
  startup: string;
  environment: Record<string, unknown>;
  limits: { memory: number; swap: number; disk: number; io: number; cpu: number; threads?: string | null };
  feature_limits: { databases: number | null; allocations?: number | null; backups: number | null };
  allocation?: { default?: number; additional?: number[] };
  deploy?: { locations?: number[]; dedicated_ip?: unknown; port_range?: string[] };
  external_id?: string | null;
  description?: string | null;
  skip_scripts?: boolean | number;
  oom_disabled?: boolean | number;
  start_on_completion?: boolean | number;
}

/** A variable value as stored: numbers and booleans as text, anything else empty. */
export const envString = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';

/** Ports named by a deploy `port_range`: single ports and `start-end` ranges (at most 1000 each). */
export function expandPortRange(entries: string[]): number[] {
  const ports: number[] = [];
  for (const entry of entries) {
    const range = /^(\d{1,5})-(\d{1,5})$/u.exec(entry.trim());
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      if (to - from > 1000) {
        throw errors.display('Adding more than 1000 ports in a single range at once is not supported.');
      }
      for (let p = from; p <= to; p++) ports.push(p);
    } else if (/^\d{1,5}$/u.test(entry.trim())) {
      ports.push(Number(entry.trim()));
    } else {
      throw errors.display(`The port mapping "${entry}" is not a port or a range of ports.`);
    }
  }
  return ports;
}

/**
 * Names the dynamic loader or a shell reads (`LD_PRELOAD`…) are refused whether the request names
 * them or the egg has one from before the rule (issue 23): 422 `environment.<NAME>`.
 */
function refuseHostEnvironmentNames(names: string[]) {
  const failures = [...new Set(names)].flatMap((name) => {
    const detail = forbiddenEnvironmentMessage(name);
    return detail ? [{ field: `environment.${name}`, rule: 'host_environment', detail }] : [];
  });
  if (failures.length > 0) throw new ValidationFailed(failures);
}

/** Egg variable values checked with each variable's own rules (422 `environment.<ENV>`). */
export function validateVariables(variables: EggVariable[], environment: Record<string, unknown>) {
  refuseHostEnvironmentNames([...Object.keys(environment), ...variables.map((v) => v.env_variable)]);
  const data = {
    environment: Object.fromEntries(
      variables.map((v) => [v.env_variable, environment[v.env_variable] ?? null]),
    ),
  };
  const failures = variables.flatMap((v) =>
    validate(
      data,
      { [`environment.${v.env_variable}`]: splitVariableRules(v.rules) },
      {
        [`environment.${v.env_variable}`]: `${v.name} variable`,
      },
    ),
  );
  if (failures.length > 0) throw new ValidationFailed(failures);
}

/**
 * Creating a server (application API `POST /servers`, reference §5.5): validation, allocation by
 * id or by deployment rules, the database rows in one transaction, then the daemon; when the
 * daemon refuses, the server is removed again and the daemon's error returned.
 */
export class ServerCreationService {
  constructor(
    private readonly servers: ServersRepository,
    private readonly users: UsersRepository,
    private readonly eggs: EggsRepository,
    private readonly nodes: NodesService,
    private readonly daemon: DaemonClient,
    private readonly activity: ActivityService,
  ) {}

  async create(body: unknown, actor: ActivityActor): Promise<Server> {
    const deploying = typeof body === 'object' && body !== null && 'deploy' in body && body.deploy != null;
    const input = check<CreateInput>(
      body,
      {
        ...CREATE_RULES,
        ...(deploying
          ? {
              deploy: 'array',
              'deploy.locations': 'present|array',
              'deploy.locations.*': 'integer|min:1',
              'deploy.port_range': 'present|array',
              'deploy.port_range.*': 'string',
              'deploy.dedicated_ip': 'required|boolean',
            }
          : {
              'allocation.default': 'required|integer',
              'allocation.additional': 'sometimes|array',
              'allocation.additional.*': 'integer',
            }),
      },
      LABELS,
    );
    const owner = await findRow(Number(input.user), (id) => this.users.findById(id));
    if (!owner)
      throw new ValidationFailed([
        { field: 'user', rule: 'exists', detail: 'The selected User ID is invalid.' },
      ]);
    const egg = await findRow(Number(input.egg), (id) => this.eggs.findEgg(id));
    if (!egg)
      throw new ValidationFailed([{ field: 'egg', rule: 'exists', detail: 'The selected egg is invalid.' }]);
    if (input.external_id && (await this.servers.externalIdTaken(input.external_id))) {
      throw new ValidationFailed([
        { field: 'external_id', rule: 'unique', detail: 'The external id has already been taken.' },
      ]);
    }
    const variables = await this.eggs.variables(egg.id);
    validateVariables(variables, input.environment);

    const allocations = deploying ? await this.deploy(input) : await this.explicit(input);
    const [primary] = allocations;
    if (!primary)
      throw errors.display('No allocations satisfying the requirements for automatic deployment were found.');
    const server = await this.insert(input, egg, primary, allocations, variables, owner.id);

    const node = await this.servers.findNode(server.node_id);
    if (!node) throw errors.notFound();
    try {
      await this.daemon.createServer(node, server.uuid, isTrue(input.start_on_completion));
    } catch (e) {
      await this.servers.delete(server.id);
      throw e;
    }
    await this.activity.log(
      'server:create',
      actor,
      [
        { type: 'server', id: server.id },
        { type: 'user', id: owner.id },
      ],
      {
        name: server.name,
      },
    );
    return server;
  }

  private async explicit(input: CreateInput): Promise<Allocation[]> {
    const wanted = [Number(input.allocation?.default), ...(input.allocation?.additional ?? []).map(Number)];
    const found = await this.servers.findAllocations([...new Set(wanted)]);
    const byId = new Map(found.map((a) => [a.id, a]));
    const primary = byId.get(wanted[0] ?? -1);
    if (!primary || primary.server_id !== null) {
      throw new ValidationFailed([
        {
          field: 'allocation.default',
          rule: 'exists',
          detail: 'The selected allocation.default is invalid.',
        },
      ]);
    }
    const extra = wanted.slice(1).map((id, i) => {
      const a = byId.get(id);
      if (!a || a.server_id !== null || a.node_id !== primary.node_id) {
        throw new ValidationFailed([
          {
            field: `allocation.additional.${i}`,
            rule: 'exists',
            detail: `The selected allocation.additional.${i} is invalid.`,
          },
        ]);
      }
      return a;
    });
    // The primary or an allocation named twice is assigned once.
    const unique = new Map([primary, ...extra].map((a) => [a.id, a]));
    return [...unique.values()];
  }

  private async deploy(input: CreateInput): Promise<Allocation[]> {
    // An id no row can have stays in the list as one that matches nothing.
    const locations = (input.deploy?.locations ?? []).map((id) => (Number(id) > MAX_ID ? -1 : Number(id)));
    const nodes = await this.nodes.viable({
      memory: Number(input.limits.memory),
      disk: Number(input.limits.disk),
      locationIds: locations.length > 0 ? locations : null,
    });
    if (nodes.length === 0) {
      throw new HttpError(
        400,
        'NoViableNodeException',
        'No nodes satisfying the requirements specified for automatic deployment could be found.',
      );
    }
    const ports = input.deploy?.port_range?.length ? expandPortRange(input.deploy.port_range) : null;
    let free = await this.servers.freeAllocations(
      nodes.map((n) => n.id),
      ports,
    );
    if (isTrue(input.deploy?.dedicated_ip)) {
      const used = await this.servers.usedAddresses(nodes.map((n) => n.id));
      free = free.filter((a) => !used.has(`${a.node_id}|${a.ip}`));
    }
    const pick = free[Math.floor(Math.random() * free.length)];
    if (!pick) {
      throw new HttpError(
        400,
        'NoViableAllocationException',
        'No allocations satisfying the requirements for automatic deployment were found.',
      );
    }
    return [pick];
  }

  private async insert(
    input: CreateInput,
    egg: Egg,
    primary: Allocation,
    allocations: Allocation[],
    variables: EggVariable[],
    ownerId: number,
  ): Promise<Server> {
    const at = nowIso();
    let uuid = randomUUID();
    // The 8-character short id must be unique too; a clash is rare but possible.
    while (await this.servers.shortIdTaken(uuid.slice(0, 8))) uuid = randomUUID();
    try {
      return await this.servers.create(
        {
          external_id: input.external_id ?? null,
          uuid,
          uuid_short: uuid.slice(0, 8),
          node_id: primary.node_id,
          name: input.name,
          description: input.description ?? '',
          status: 'installing',
          skip_scripts: isTrue(input.skip_scripts) ? 1 : 0,
          owner_id: ownerId,
          // `numeric` admits fractions; the columns are integers (MySQL rounds them the same way).
          memory: Math.round(Number(input.limits.memory)),
          swap: Math.round(Number(input.limits.swap)),
          disk: Math.round(Number(input.limits.disk)),
          io: Math.round(Number(input.limits.io)),
          cpu: Math.round(Number(input.limits.cpu)),
          threads: input.limits.threads ?? null,
          oom_disabled: input.oom_disabled === undefined || isTrue(input.oom_disabled) ? 1 : 0,
          allocation_id: primary.id,
          nest_id: egg.nest_id,
          egg_id: egg.id,
          startup: input.startup,
          image: input.docker_image,
          allocation_limit: input.feature_limits.allocations ?? null,
          database_limit: input.feature_limits.databases ?? null,
          backup_limit: input.feature_limits.backups ?? 0,
          installed_at: null,
          created_at: at,
          updated_at: at,
        },
        allocations.map((a) => a.id),
        variables.map((v) => ({ variableId: v.id, value: envString(input.environment[v.env_variable]) })),
      );
    } catch (e) {
      if (e instanceof AllocationTakenError) throw errors.display(e.message);
      throw e;
    }
  }
}
