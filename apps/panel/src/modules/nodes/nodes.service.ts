import { randomUUID } from 'node:crypto';
import type { Node } from '../../db/types.ts';
import { errors } from '../../http/errors.ts';
import { encrypt, randomAlnum } from '../../lib/crypto.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { ListParams } from '../application/listing.ts';
import { MAX_ID } from '../application/urls.ts';
import { exists, flag, validateBody } from '../application/validation.ts';
import type { LocationsRepository } from '../locations/locations.repository.ts';
import type { NodesRepository } from './nodes.repository.ts';
import type { AllocatedResources } from './nodes.presenter.ts';

export const DEFAULT_DAEMON_BASE = '/var/lib/pterodactyl/volumes';

// The numeric maxima are the integer columns' range (the reference has none; larger values could not be stored).
const RULES = {
  name: ['required', 'regex:/^[\\w .-]{1,100}$/'],
  location_id: 'required|integer',
  fqdn: 'required|string|max:191',
  // The reference only says "required"; anything but these two cannot be dialled.
  scheme: 'required|in:http,https',
  public: 'boolean',
  behind_proxy: 'boolean',
  maintenance_mode: 'boolean',
  memory: 'required|numeric|min:1|max:2147483647',
  memory_overallocate: 'required|numeric|min:-1|max:2147483647',
  disk: 'required|numeric|min:1|max:2147483647',
  disk_overallocate: 'required|numeric|min:-1|max:2147483647',
  upload_size: 'integer|between:1,1024',
  daemon_listen: 'required|numeric|between:1,65535',
  daemon_sftp: 'required|numeric|between:1,65535',
  daemon_base: ['sometimes', 'required', 'regex:/^\\/[\\d\\w.\\-\\/]+$/'],
  reset_secret: 'sometimes|nullable|boolean',
  // Our extension (the reference cannot set it through the API): free text for operators.
  description: 'sometimes|nullable|string|max:2000',
} as const;

const LABELS = {
  daemon_base: 'Daemon Base Path',
  upload_size: 'File Upload Size Limit',
  location_id: 'Location',
  public: 'Node Visibility',
};

type Num = number | string;
interface NodeBody {
  name: string;
  location_id: Num;
  fqdn: string;
  scheme: string;
  public?: unknown;
  behind_proxy?: unknown;
  maintenance_mode?: unknown;
  memory: Num;
  memory_overallocate: Num;
  disk: Num;
  disk_overallocate: Num;
  upload_size?: Num | null;
  daemon_listen: Num;
  daemon_sftp: Num;
  daemon_base?: string;
  reset_secret?: unknown;
  description?: string | null;
}

const int = (v: Num) => Math.trunc(Number(v));

/** A node's daemon credentials: the id is looked up, the secret signs and is stored encrypted. */
function newDaemonToken(appKey: Buffer) {
  return { daemon_token_id: randomAlnum(16), daemon_token: encrypt(appKey, randomAlnum(64)) };
}

/** Nodes: the machines that run servers, with their capacity and daemon credentials. */
export class NodesService {
  constructor(
    private readonly repo: NodesRepository,
    private readonly locations: LocationsRepository,
    private readonly activity: ActivityService,
    private readonly appKey: Buffer,
  ) {}

  list(params: ListParams) {
    return this.repo.list(params);
  }

  async get(id: number): Promise<Node> {
    const node = await this.repo.findById(id);
    if (!node) throw errors.notFound();
    return node;
  }

  allocated(nodeIds: number[]): Promise<Map<number, AllocatedResources>> {
    return this.repo.allocated(nodeIds);
  }

  private validate(body: unknown): Promise<NodeBody> {
    return validateBody<NodeBody>(body, RULES, LABELS, {
      location_id: exists(async (v) => {
        const id = int(v as Num);
        return id > 0 && id <= MAX_ID && (await this.locations.findById(id)) !== undefined;
      }),
    });
  }

  /** The columns every write sets from a validated body. */
  private columns(input: NodeBody) {
    return {
      name: input.name,
      location_id: int(input.location_id),
      fqdn: input.fqdn,
      scheme: input.scheme,
      memory: int(input.memory),
      memory_overallocate: int(input.memory_overallocate),
      disk: int(input.disk),
      disk_overallocate: int(input.disk_overallocate),
      daemon_listen: int(input.daemon_listen),
      daemon_sftp: int(input.daemon_sftp),
    };
  }

  async create(body: unknown, actor: ActivityActor): Promise<Node> {
    const input = await this.validate(body);
    const now = nowIso();
    const node = await this.repo.insert({
      ...this.columns(input),
      uuid: randomUUID(),
      description: input.description ?? null,
      public: input.public === undefined ? 1 : flag(input.public),
      behind_proxy: flag(input.behind_proxy),
      maintenance_mode: flag(input.maintenance_mode),
      upload_size: input.upload_size == null ? 100 : int(input.upload_size),
      daemon_base: input.daemon_base ?? DEFAULT_DAEMON_BASE,
      ...newDaemonToken(this.appKey),
      created_at: now,
      updated_at: now,
    });
    await this.activity.log('node:create', actor, [{ type: 'node', id: node.id }], { name: node.name });
    return node;
  }

  /** PATCH re-validates the required fields; optional ones keep their value when omitted. */
  async update(id: number, body: unknown, actor: ActivityActor): Promise<Node> {
    const node = await this.get(id);
    const input = await this.validate(body);
    if (actor.apiKeyId !== null && movesDaemon(node, input)) throw errors.forbidden();
    const reset = input.reset_secret === true;
    await this.repo.update(node.id, {
      ...this.columns(input),
      public: input.public === undefined ? node.public : flag(input.public),
      behind_proxy: input.behind_proxy === undefined ? node.behind_proxy : flag(input.behind_proxy),
      maintenance_mode:
        input.maintenance_mode === undefined ? node.maintenance_mode : flag(input.maintenance_mode),
      upload_size: input.upload_size == null ? node.upload_size : int(input.upload_size),
      daemon_base: input.daemon_base ?? node.daemon_base,
      description: input.description === undefined ? node.description : input.description,
      ...(reset ? newDaemonToken(this.appKey) : {}),
      updated_at: nowIso(),
    });
    await this.activity.log('node:update', actor, [{ type: 'node', id: node.id }], { reset_secret: reset });
    return this.get(node.id);
  }

  async delete(id: number, actor: ActivityActor): Promise<void> {
    const node = await this.get(id);
    if (await this.repo.hasServers(node.id)) {
      throw errors.display(
        'A node must have no servers linked to it in order to be deleted.',
        'HasActiveServersException',
      );
    }
    await this.repo.delete(node.id);
    await this.activity.log('node:delete', actor, [], { id: node.id, name: node.name });
  }

  /**
   * Nodes that can take a new server of `memory`/`disk` MiB: public, not in maintenance, in the
   * given locations, with the summed limits of their servers plus the request within capacity ×
   * (1 + overallocate %). An overallocation of -1 means "do not check" (as the admin form says).
   */
  async viable(req: { memory: number; disk: number; locationIds: number[] | null }): Promise<Node[]> {
    const candidates = await this.repo.deployCandidates(req.locationIds);
    const used = await this.repo.allocated(candidates.map((n) => n.id));
    const fits = (capacity: number, over: number, used: number, wanted: number) =>
      over < 0 || used + wanted <= capacity * (1 + over / 100);
    const out = candidates.filter((n) => {
      const u = used.get(n.id) ?? { memory: 0, disk: 0 };
      return (
        fits(n.memory, n.memory_overallocate, u.memory, req.memory) &&
        fits(n.disk, n.disk_overallocate, u.disk, req.disk)
      );
    });
    if (out.length === 0) {
      throw errors.display(
        'No nodes satisfying the requirements specified for automatic deployment could be found.',
        'NoViableNodeException',
      );
    }
    return out;
  }
}

/**
 * Whether an update points the node at another daemon address. The panel sends the node token to
 * that address on every daemon call, so only a root admin's session may change it: a key that
 * could would collect the token the configuration route withholds from keys (issue 23).
 */
function movesDaemon(node: Node, input: NodeBody): boolean {
  return (
    input.fqdn !== node.fqdn ||
    input.scheme !== node.scheme ||
    int(input.daemon_listen) !== node.daemon_listen
  );
}
