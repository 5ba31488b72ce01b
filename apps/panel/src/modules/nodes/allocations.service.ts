import type { Allocation } from '../../db/types.ts';
import { errors } from '../../http/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { ListParams } from '../application/listing.ts';
import { validateBody } from '../application/validation.ts';
import { allocationAddresses, allocationPorts } from './allocation-input.ts';
import type { AllocationsRepository } from './allocations.repository.ts';
import type { NodesService } from './nodes.service.ts';

const RULES = {
  ip: 'required|string',
  alias: 'sometimes|nullable|string|max:191',
  ports: 'required|array',
  'ports.*': 'string',
};

const UPDATE_RULES = {
  alias: 'sometimes|nullable|string|max:191',
  notes: 'sometimes|nullable|string|max:256',
};

/** The ip:port pairs of a node that servers are given. */
export class AllocationsService {
  constructor(
    private readonly repo: AllocationsRepository,
    private readonly nodes: NodesService,
    private readonly activity: ActivityService,
  ) {}

  async list(nodeId: number, params: ListParams, serverId?: number | null) {
    const node = await this.nodes.get(nodeId);
    return this.repo.list(node.id, params, serverId);
  }

  /** Adds allocations; nothing is added unless the whole request is valid. */
  async create(nodeId: number, body: unknown, actor: ActivityActor): Promise<void> {
    const node = await this.nodes.get(nodeId);
    const input = await validateBody<{ ip: string; alias?: string | null; ports: string[] }>(body, RULES, {});
    const ips = await allocationAddresses(input.ip);
    const ports = allocationPorts(Object.values(input.ports));
    const added = await this.repo.insertMissing(node.id, ips, ports, input.alias ?? null, nowIso());
    await this.activity.log('node:allocation.create', actor, [{ type: 'node', id: node.id }], {
      ip: input.ip,
      ports: input.ports,
      added,
    });
  }

  /**
   * Our extension: changes an allocation's alias and notes (assigned or not); a field left out
   * keeps its value, null clears it.
   */
  async update(
    nodeId: number,
    allocationId: number,
    body: unknown,
    actor: ActivityActor,
  ): Promise<Allocation> {
    const node = await this.nodes.get(nodeId);
    const allocation = await this.repo.findOnNode(node.id, allocationId);
    if (!allocation) throw errors.notFound();
    const input = await validateBody<{ alias?: string | null; notes?: string | null }>(
      body,
      UPDATE_RULES,
      {},
    );
    const changes = {
      ...(input.alias === undefined ? {} : { ip_alias: input.alias }),
      ...(input.notes === undefined ? {} : { notes: input.notes }),
    };
    await this.repo.update(allocation.id, { ...changes, updated_at: nowIso() });
    await this.activity.log('node:allocation.update', actor, [{ type: 'node', id: node.id }], {
      ip: allocation.ip,
      port: allocation.port,
      ...changes,
    });
    return (await this.repo.findOnNode(node.id, allocation.id))!;
  }

  async delete(nodeId: number, allocationId: number, actor: ActivityActor): Promise<void> {
    const node = await this.nodes.get(nodeId);
    const allocation: Allocation | undefined = await this.repo.findOnNode(node.id, allocationId);
    if (!allocation) throw errors.notFound();
    if (allocation.server_id !== null) {
      throw errors.display(
        'A server is currently assigned to this allocation. An allocation can only be deleted if no server is currently assigned.',
        'ServerUsingAllocationException',
      );
    }
    await this.repo.delete(allocation.id);
    await this.activity.log('node:allocation.delete', actor, [{ type: 'node', id: node.id }], {
      ip: allocation.ip,
      port: allocation.port,
    });
  }
}
