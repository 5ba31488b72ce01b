import { randomInt } from 'node:crypto';
import type { Allocation, Server } from '../../db/types.ts';
import { errors } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { PermittedServerAccess, UsableServerAccess } from '../servers/server-access.ts';
import type { ServerUpdateService } from '../servers/server-update.service.ts';
import { clientAllocationAttributes } from '../servers/servers.presenter.ts';
import type { ServersRepository } from '../servers/servers.repository.ts';
import type { NetworkRepository } from './network.repository.ts';

/** PTERODACTYL_CLIENT_ALLOCATIONS_*: whether users may add allocations, and the ports made for them. */
export interface ClientAllocationSettings {
  enabled: boolean;
  /** null unless both ends are configured */
  range: [number, number] | null;
}

/** Ids above the largest integer column value cannot exist (and PostgreSQL refuses to compare them). */
const MAX_ID = 2_147_483_647;
/** Attempts to take a free allocation or make a new one when other requests keep winning the race. */
const ATTEMPTS = 5;

const LIMIT_REACHED = 'Cannot assign additional allocations to this server: limit has been reached.';
const NO_SPACE = 'Cannot assign additional allocation: no more space available on node.';

const address = (a: Allocation) => `${a.ip}:${a.port}`;
const subjects = (server: Server, a: Allocation) => [
  { type: 'server', id: server.id },
  { type: 'allocation', id: a.id },
];

/**
 * A server's allocations as its users manage them (reference §3.3 "Network allocations"). The
 * route's guard answers 404 and 409, looks `{allocation}` up through the server ({@link find}, 404)
 * and checks the permission (403); the service checks the input (422). Changes that alter the daemon's view of the
 * server (its ports, its primary address) are synced to the daemon as the application API does:
 * a daemon that is down learns them at its next sync or start.
 */
export class NetworkService {
  constructor(
    private readonly repo: NetworkRepository,
    private readonly servers: ServersRepository,
    private readonly update: ServerUpdateService,
    private readonly activity: ActivityService,
    /** the settings in effect (admins change them on the Settings screen) */
    private readonly settings: () => Promise<ClientAllocationSettings>,
  ) {}

  /** GET /network/allocations: every allocation of the server. */
  async list(access: PermittedServerAccess) {
    const rows = await this.repo.ofServer(access.server.id);
    return rows.map((a) => clientAllocationAttributes(a, access.server.allocation_id));
  }

  /**
   * POST /network/allocations: a free allocation on the primary's IP, else a new port in the range.
   * The limit is checked again inside the transaction that assigns, with the server's row locked,
   * so parallel requests cannot all pass the count (CVE-2025-69198 / CVE-2026-35202).
   */
  async create(access: PermittedServerAccess, actor: ActivityActor) {
    const { server } = access;
    await checkLimit(this.repo, server);
    const settings = await this.settings();
    if (!settings.enabled) {
      throw errors.display(
        'Server auto-allocation is not enabled for this instance.',
        'AutoAllocationNotEnabledException',
      );
    }
    const primary = await this.repo.findOnServer(server.id, server.allocation_id);
    if (!primary) throw new Error(`server ${server.id} has no primary allocation`);
    const allocation = await this.repo.withServerLocked(server.id, async (tx) => {
      await checkLimit(tx, server);
      return (await takeFree(tx, server, primary)) ?? (await makeNew(tx, server, primary, settings.range));
    });
    await this.update.sync(server);
    await this.activity.log('server:allocation.create', actor, subjects(server, allocation), {
      allocation: address(allocation),
    });
    return clientAllocationAttributes(allocation, server.allocation_id);
  }

  /** `{allocation}`: a number naming one of this server's allocations, else 404. */
  async find(access: UsableServerAccess, id: string): Promise<Allocation> {
    const n = /^\d{1,10}$/u.test(id) ? Number(id) : NaN;
    const allocation = n <= MAX_ID ? await this.repo.findOnServer(access.server.id, n) : undefined;
    if (!allocation) throw errors.notFound();
    return allocation;
  }

  /** POST /network/allocations/{allocation}: its notes; logged only when they changed. */
  async setNotes(access: PermittedServerAccess, allocation: Allocation, body: unknown, actor: ActivityActor) {
    const input = check<{ notes: string | null }>(body, { notes: 'present|nullable|string|max:256' });
    const notes = input.notes ?? null;
    const { server } = access;
    if (notes !== allocation.notes) {
      await this.repo.setNotes(allocation.id, notes, nowIso());
      await this.activity.log('server:allocation.notes', actor, subjects(server, allocation), {
        allocation: address(allocation),
        old: allocation.notes,
        new: notes,
      });
    }
    return clientAllocationAttributes({ ...allocation, notes }, server.allocation_id);
  }

  /** POST /network/allocations/{allocation}/primary: the server's primary address from now on. */
  async setPrimary(access: PermittedServerAccess, allocation: Allocation, actor: ActivityActor) {
    const { server } = access;
    if (allocation.id !== server.allocation_id) {
      await this.servers.update(server.id, { allocation_id: allocation.id, updated_at: nowIso() });
      await this.update.sync(server);
    }
    await this.activity.log('server:allocation.primary', actor, subjects(server, allocation), {
      allocation: address(allocation),
    });
    return clientAllocationAttributes(allocation, allocation.id);
  }

  /** DELETE /network/allocations/{allocation}: back to the node, unless it is the primary one. */
  async delete(access: PermittedServerAccess, allocation: Allocation, actor: ActivityActor): Promise<void> {
    const { server } = access;
    if (!server.allocation_limit) {
      throw errors.display('You cannot delete allocations for this server: no allocation limit is set.');
    }
    if (allocation.id === server.allocation_id) {
      throw errors.display('You cannot delete the primary allocation for this server.');
    }
    await this.repo.release(allocation.id, server.id, nowIso());
    await this.update.sync(server);
    await this.activity.log('server:allocation.delete', actor, subjects(server, allocation), {
      allocation: address(allocation),
    });
  }
}

/** A limit that is not set counts as reached, as in the original. */
async function checkLimit(repo: NetworkRepository, server: Server): Promise<void> {
  if (server.allocation_limit === null || (await repo.countOnServer(server.id)) >= server.allocation_limit) {
    throw errors.display(LIMIT_REACHED);
  }
}

/** A free allocation of the node on the primary's IP given to the server, or null if none is left. */
async function takeFree(
  repo: NetworkRepository,
  server: Server,
  primary: Allocation,
): Promise<Allocation | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const free = await repo.freeOnAddress(server.node_id, primary.ip);
    if (free.length === 0) return null;
    const pick = free[randomInt(free.length)]!;
    const at = nowIso();
    if (await repo.assign(pick.id, server.id, at)) {
      return { ...pick, server_id: server.id, notes: null, updated_at: at };
    }
  }
  return null;
}

/** A new allocation on an unused port of the range, given to the server. */
async function makeNew(
  repo: NetworkRepository,
  server: Server,
  primary: Allocation,
  range: [number, number] | null,
): Promise<Allocation> {
  if (!range) throw errors.display(NO_SPACE, 'NoAutoAllocationSpaceAvailableException');
  const [from, to] = range;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const used = await repo.portsOnAddress(server.node_id, primary.ip, from, to);
    const open: number[] = [];
    for (let port = from; port <= to; port += 1) if (!used.has(port)) open.push(port);
    if (open.length === 0) break;
    const created = await repo.insertAssigned(
      {
        node_id: server.node_id,
        ip: primary.ip,
        ip_alias: primary.ip_alias,
        port: open[randomInt(open.length)]!,
        server_id: server.id,
      },
      nowIso(),
    );
    if (created) return created;
  }
  throw errors.display(NO_SPACE, 'NoAutoAllocationSpaceAvailableException');
}
