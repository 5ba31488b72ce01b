import type { Expression, ExpressionBuilder, Insertable, Kysely, SqlBool } from 'kysely';
import { page, type ListParams } from '../application/listing.ts';
import { MAX_ID } from '../application/urls.ts';
import { GenerationCache } from './generation-cache.ts';
import type {
  Allocation,
  Database,
  Egg,
  EggVariable,
  Location,
  Node,
  Server,
  ServersTable,
  Subuser,
} from '../../db/types.ts';

export interface ServerVariableValue {
  variable: EggVariable;
  /** null when the server never set it */
  value: string | null;
}

/** Everything a server's pages and configuration document are built from. */
export interface ServerBundle {
  server: Server;
  node: Node;
  location: Location;
  egg: Egg;
  allocations: Allocation[];
  variables: ServerVariableValue[];
}

export type ListScope =
  | { kind: 'member'; userId: number }
  | { kind: 'owner'; userId: number }
  | { kind: 'others'; userId: number }
  | { kind: 'all' };

/** A server row with its node's (undefined only when the node row is gone). */
export interface ServerWithNode {
  server: Server;
  node: Node | undefined;
}

export class ServersRepository {
  private readonly serverWithNode = new GenerationCache<Readonly<ServerWithNode>>({ maxEntries: 10_000 });

  constructor(private readonly db: Kysely<Database>) {}

  /** The counter the database bumps on any change a client server list could show (migration 0004). */
  async listGeneration(): Promise<number> {
    const row = await this.db
      .selectFrom('change_generations')
      .select('value')
      .where('name', '=', 'server_list')
      .executeTakeFirstOrThrow();
    return Number(row.value);
  }

  /** `{server}` of the client API: the 8-character identifier or the full uuid. */
  findByIdentifier(identifier: string): Promise<Server | undefined> {
    const column = identifier.length === 8 ? 'uuid_short' : 'uuid';
    return this.db.selectFrom('servers').selectAll().where(column, '=', identifier).executeTakeFirst();
  }

  findByExternalId(externalId: string): Promise<Server | undefined> {
    return this.db.selectFrom('servers').selectAll().where('external_id', '=', externalId).executeTakeFirst();
  }

  /**
   * The application API list: filters, search, sorts and a page (reference §1.5). `filter[status]`
   * is exact, with `none` meaning no status (installed, not suspended).
   */
  applicationList(params: ListParams): Promise<{ rows: Server[]; total: number }> {
    const status = params.filters.find((f) => f.column === 'status');
    let q = this.db.selectFrom('servers').selectAll();
    if (status) {
      q = q.where((eb) =>
        eb.or(status.values.map((v) => (v === 'none' ? eb('status', 'is', null) : eb('status', '=', v)))),
      );
    }
    return page(q, { ...params, filters: params.filters.filter((f) => f !== status) }, 'id');
  }

  findById(id: number): Promise<Server | undefined> {
    return this.db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByUuidOnNode(uuid: string, nodeId: number): Promise<Server | undefined> {
    return this.db
      .selectFrom('servers')
      .selectAll()
      .where('uuid', '=', uuid)
      .where('node_id', '=', nodeId)
      .executeTakeFirst();
  }

  findSubuser(serverId: number, userId: number): Promise<Subuser | undefined> {
    return this.db
      .selectFrom('subusers')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * A server by `{server}` identifier with its node: what every server route's guard reads first.
   * Reused while the database's change counter stands still (one single-row query instead of two);
   * the rows are frozen, since every request that reuses them shares them. Unknown identifiers are
   * not remembered, so probing cannot push real servers out.
   */
  async findWithNode(identifier: string): Promise<Readonly<ServerWithNode> | undefined> {
    const generation = await this.listGeneration();
    const hit = this.serverWithNode.get(identifier, generation);
    if (hit) return hit;
    const server = await this.findByIdentifier(identifier);
    if (!server) return undefined;
    const node = await this.findNode(server.node_id);
    const found = Object.freeze({ server: Object.freeze(server), node: node && Object.freeze(node) });
    this.serverWithNode.set(identifier, generation, found);
    return found;
  }

  findNodeByTokenId(tokenId: string): Promise<Node | undefined> {
    return this.db.selectFrom('nodes').selectAll().where('daemon_token_id', '=', tokenId).executeTakeFirst();
  }

  findNode(id: number): Promise<Node | undefined> {
    return this.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async bundle(server: Server): Promise<ServerBundle> {
    const [node, egg, allocations, variables] = await Promise.all([
      this.db.selectFrom('nodes').selectAll().where('id', '=', server.node_id).executeTakeFirstOrThrow(),
      this.db.selectFrom('eggs').selectAll().where('id', '=', server.egg_id).executeTakeFirstOrThrow(),
      this.db
        .selectFrom('allocations')
        .selectAll()
        .where('server_id', '=', server.id)
        .orderBy('id')
        .execute(),
      this.variableValues(server.id, server.egg_id),
    ]);
    const location = await this.db
      .selectFrom('locations')
      .selectAll()
      .where('id', '=', node.location_id)
      .executeTakeFirstOrThrow();
    return { server, node, location, egg, allocations, variables };
  }

  /**
   * The bundles of a page of servers with one query per table (not per server), in the order
   * given: for application lists and includes.
   */
  async bundles(servers: Server[]): Promise<ServerBundle[]> {
    if (servers.length === 0) return [];
    const ids = servers.map((s) => s.id);
    const unique = (values: number[]) => [...new Set(values)];
    const eggIds = unique(servers.map((s) => s.egg_id));
    // The eggs' variables once each and the servers' values apart, rather than a join that repeats
    // every variable's columns for every server of the page.
    const [nodes, eggs, allocations, eggVariables, values] = await Promise.all([
      this.db
        .selectFrom('nodes')
        .selectAll()
        .where('id', 'in', unique(servers.map((s) => s.node_id)))
        .execute(),
      this.db.selectFrom('eggs').selectAll().where('id', 'in', eggIds).execute(),
      this.db.selectFrom('allocations').selectAll().where('server_id', 'in', ids).orderBy('id').execute(),
      this.db.selectFrom('egg_variables').selectAll().where('egg_id', 'in', eggIds).orderBy('id').execute(),
      this.db
        .selectFrom('server_variables')
        .select(['server_id', 'variable_id', 'variable_value'])
        .where('server_id', 'in', ids)
        .execute(),
    ]);
    const locations = await this.db
      .selectFrom('locations')
      .selectAll()
      .where('id', 'in', unique(nodes.map((n) => n.location_id)))
      .execute();
    // Maps keep the assembly linear in the page size; the groups keep the queries' id order.
    const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
    const nodeById = byId(nodes);
    const eggById = byId(eggs);
    const locationById = byId(locations);
    const allocationsOf = groupBy(allocations, (a) => a.server_id);
    const variablesOf = groupBy(eggVariables, (v) => v.egg_id);
    const valueOf = new Map(values.map((v) => [`${v.server_id}/${v.variable_id}`, v.variable_value]));
    return servers.map((server) => {
      const node = nodeById.get(server.node_id);
      const egg = eggById.get(server.egg_id);
      const location = node && locationById.get(node.location_id);
      if (!node || !egg || !location) throw new Error(`server ${server.id} has a dangling reference`);
      return {
        server,
        node,
        location,
        egg,
        allocations: allocationsOf.get(server.id) ?? [],
        variables: (variablesOf.get(server.egg_id) ?? []).map((variable) => ({
          variable,
          value: valueOf.get(`${server.id}/${variable.id}`) ?? null,
        })),
      };
    });
  }

  /** One user's subuser rows on a page of servers. */
  subusersOfUser(serverIds: number[], userId: number): Promise<Subuser[]> {
    if (serverIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('subusers')
      .selectAll()
      .where('server_id', 'in', serverIds)
      .where('user_id', '=', userId)
      .execute();
  }

  /** The subusers of a page of servers, in id order. */
  subusersOf(serverIds: number[]): Promise<Subuser[]> {
    if (serverIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('subusers')
      .selectAll()
      .where('server_id', 'in', serverIds)
      .orderBy('id')
      .execute();
  }

  async variableValues(serverId: number, eggId: number): Promise<ServerVariableValue[]> {
    const rows = await this.db
      .selectFrom('egg_variables as v')
      .leftJoin('server_variables as sv', (join) =>
        join.onRef('sv.variable_id', '=', 'v.id').on('sv.server_id', '=', serverId),
      )
      .selectAll('v')
      .select('sv.variable_value')
      .where('v.egg_id', '=', eggId)
      .orderBy('v.id')
      .execute();
    return rows.map(({ variable_value, ...variable }) => ({ variable, value: variable_value }));
  }

  /** Servers a user may list, newest last, with an optional multi-field search term. */
  async list(scope: ListScope, opts: { search?: string; offset: number; limit: number }) {
    let q = this.db.selectFrom('servers');
    if (scope.kind !== 'all') {
      const userId = scope.userId;
      const memberOf = this.db.selectFrom('subusers').select('server_id').where('user_id', '=', userId);
      if (scope.kind === 'owner') q = q.where('servers.owner_id', '=', userId);
      if (scope.kind === 'member') {
        q = q.where((eb) => eb.or([eb('servers.owner_id', '=', userId), eb('servers.id', 'in', memberOf)]));
      }
      if (scope.kind === 'others') {
        q = q.where('servers.owner_id', '!=', userId).where('servers.id', 'not in', memberOf);
      }
    }
    const term = opts.search;
    if (term) q = q.where((eb) => this.search(eb, term));
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll('servers')
      .orderBy('servers.id')
      .offset(opts.offset)
      .limit(opts.limit)
      .execute();
    return { rows, total: Number(total?.n ?? 0) };
  }

  /**
   * `filter[*]`: what a server card shows, or its ids. An address matches through the server's
   * allocations by what the card prints, the alias when set (the local node's is `localhost`) or
   * else the IP, and by the IP too: `host`, `host:port`, `:port` (a port prefix) or a bare port.
   * Any term also matches the uuid (exact or prefix), short id, external id or part of the name.
   */
  private search(eb: ExpressionBuilder<Database, 'servers'>, term: string): Expression<SqlBool> {
    const escaped = term.replace(/[\\%_]/gu, (c) => `\\${c}`);
    const byText = [
      eb('servers.uuid', '=', term),
      eb('servers.uuid', 'like', `${escaped}%`),
      eb('servers.uuid_short', '=', term),
      eb('servers.external_id', '=', term),
      eb(eb.fn('lower', ['servers.name']), 'like', `%${escaped.toLowerCase()}%`),
    ];
    const address = this.addressTerm(term);
    if (!address) return eb.or(byText);
    const { host, port, portPrefix } = address;
    let sub = this.db.selectFrom('allocations').select('server_id').where('server_id', 'is not', null);
    if (host !== null) {
      // Aliases are host names and IPv6 addresses are hex: both compared without case.
      sub = sub.where((a) =>
        a.or([
          a(a.fn('lower', ['ip']), '=', host.toLowerCase()),
          a(a.fn('lower', ['ip_alias']), '=', host.toLowerCase()),
        ]),
      );
    }
    if (port !== null) {
      sub = portPrefix
        ? sub.where((a) => a(a.cast('port', 'varchar(5)'), 'like', `${port}%`))
        : sub.where('port', '=', Number(port));
    }
    return eb.or([...byText, eb('servers.id', 'in', sub)]);
  }

  /**
   * A term read as an address: `host:port` and `:port` (the port as typed so far, a prefix), a
   * bare number (a whole port), one word that could be a host name or IPv4 address, or an IPv6
   * address bare or bracketed as the card prints it (`[2001:db8::5]:25565`).
   */
  private addressTerm(
    term: string,
  ): { host: string | null; port: string | null; portPrefix: boolean } | null {
    const bracketed = /^\[([\da-f:.]+)\](?::(\d{1,5}))?$/iu.exec(term);
    if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ?? null, portPrefix: true };
    if (/^[\da-f.]*:[\da-f.]*:[\da-f:.]*$/iu.test(term)) return { host: term, port: null, portPrefix: false };
    const withPort = /^([^\s:]*):(\d{1,5})$/u.exec(term);
    if (withPort) return { host: withPort[1] || null, port: withPort[2]!, portPrefix: true };
    if (/^\d{1,5}$/u.test(term)) return { host: null, port: term, portPrefix: false };
    if (/^[\w.-]+$/u.test(term)) return { host: term, port: null, portPrefix: false };
    return null;
  }

  async listForNode(nodeId: number, offset: number, limit: number) {
    const total = await this.db
      .selectFrom('servers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('node_id', '=', nodeId)
      .executeTakeFirst();
    const rows = await this.db
      .selectFrom('servers')
      .selectAll()
      .where('node_id', '=', nodeId)
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute();
    return { rows, total: Number(total?.n ?? 0) };
  }

  findAllocations(ids: number[]): Promise<Allocation[]> {
    // Ids no row can have are left out: PostgreSQL fails on comparing an integer column with a
    // number beyond 32 bits instead of matching nothing.
    const possible = ids.filter((id) => Number.isInteger(id) && id > 0 && id <= MAX_ID);
    if (possible.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('allocations').selectAll().where('id', 'in', possible).execute();
  }

  /** Unassigned allocations on the given nodes, optionally only on the given ports. */
  freeAllocations(nodeIds: number[], ports: number[] | null): Promise<Allocation[]> {
    if (nodeIds.length === 0) return Promise.resolve([]);
    let q = this.db
      .selectFrom('allocations')
      .selectAll()
      .where('node_id', 'in', nodeIds)
      .where('server_id', 'is', null);
    if (ports) q = q.where('port', 'in', ports.length > 0 ? ports : [-1]);
    return q.orderBy('id').execute();
  }

  /** Node and IP pairs that already have an assigned allocation (for dedicated-IP deployments). */
  async usedAddresses(nodeIds: number[]): Promise<Set<string>> {
    if (nodeIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('allocations')
      .select(['node_id', 'ip'])
      .where('node_id', 'in', nodeIds)
      .where('server_id', 'is not', null)
      .execute();
    return new Set(rows.map((r) => `${r.node_id}|${r.ip}`));
  }

  shortIdTaken(short: string): Promise<Server | undefined> {
    return this.db.selectFrom('servers').selectAll().where('uuid_short', '=', short).executeTakeFirst();
  }

  externalIdTaken(externalId: string, exceptId?: number): Promise<Server | undefined> {
    let q = this.db.selectFrom('servers').selectAll().where('external_id', '=', externalId);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return q.executeTakeFirst();
  }

  async update(id: number, values: Partial<Omit<Server, 'id'>>): Promise<void> {
    await this.db.updateTable('servers').set(values).where('id', '=', id).execute();
  }

  /** Servers of a node left `installing` or `restoring_backup` by a daemon that restarted. */
  async resetStuck(nodeId: number, at: string): Promise<void> {
    await this.db
      .updateTable('servers')
      .set({ status: null, updated_at: at })
      .where('node_id', '=', nodeId)
      .where('status', 'in', ['installing', 'restoring_backup'])
      .execute();
  }

  /** Inserts a server, assigns its allocations and stores its variables, in one transaction. */
  async create(
    row: Insertable<ServersTable>,
    allocationIds: number[],
    variables: { variableId: number; value: string }[],
  ): Promise<Server> {
    return this.db.transaction().execute(async (trx) => {
      const server = await trx.insertInto('servers').values(row).returningAll().executeTakeFirstOrThrow();
      const assigned = await trx
        .updateTable('allocations')
        .set({ server_id: server.id, updated_at: row.created_at })
        .where('id', 'in', allocationIds)
        .where('server_id', 'is', null)
        .executeTakeFirst();
      if (Number(assigned.numUpdatedRows) !== allocationIds.length) {
        throw new AllocationTakenError();
      }
      if (variables.length > 0) {
        await trx
          .insertInto('server_variables')
          .values(
            variables.map((v) => ({
              server_id: server.id,
              variable_id: v.variableId,
              variable_value: v.value,
              created_at: row.created_at,
              updated_at: row.created_at,
            })),
          )
          .execute();
      }
      return server;
    });
  }

  /** New limits and primary allocation, with allocations assigned and released, in one transaction. */
  async updateBuild(
    id: number,
    change: { values: Partial<Omit<Server, 'id'>>; assign: number[]; release: number[] },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const at = change.values.updated_at ?? new Date().toISOString();
      if (change.assign.length > 0) {
        await trx
          .updateTable('allocations')
          .set({ server_id: id, notes: null, updated_at: at })
          .where('id', 'in', change.assign)
          .where('server_id', 'is', null)
          .execute();
      }
      if (change.release.length > 0) {
        await trx
          .updateTable('allocations')
          .set({ server_id: null, notes: null, updated_at: at })
          .where('id', 'in', change.release)
          .where('server_id', '=', id)
          .execute();
      }
      await trx.updateTable('servers').set(change.values).where('id', '=', id).execute();
    });
  }

  /** New startup, image and egg, and (when given) every variable value, in one transaction. */
  async updateStartup(
    id: number,
    values: Partial<Omit<Server, 'id'>>,
    variables: { variableId: number; value: string }[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('servers').set(values).where('id', '=', id).execute();
      const at = values.updated_at ?? new Date().toISOString();
      for (const v of variables) {
        await trx
          .insertInto('server_variables')
          .values({
            server_id: id,
            variable_id: v.variableId,
            variable_value: v.value,
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) =>
            oc.columns(['server_id', 'variable_id']).doUpdateSet({ variable_value: v.value, updated_at: at }),
          )
          .execute();
      }
    });
  }

  async delete(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('allocations')
        .set({ server_id: null, notes: null })
        .where('server_id', '=', id)
        .execute();
      await trx.deleteFrom('servers').where('id', '=', id).execute();
    });
  }
}

/** Rows by key, each group in the rows' order (`Map.groupBy` needs Node 21). */
function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** Another request took an allocation between choosing and assigning it. */
export class AllocationTakenError extends Error {
  constructor() {
    super('An allocation was assigned to another server at the same time.');
  }
}
