import type { Server, Subuser } from '../../db/types.ts';
import { atom } from '../../lib/time.ts';
import type { IncludeSources } from '../application/include-sources.ts';
import {
  NULL_RESOURCE,
  relItem,
  relList,
  withRelationships,
  type Includes,
  type Relationship,
} from '../application/includes.ts';
import { applicationDatabaseAttributes } from '../databases/databases.presenter.ts';
import { presentEggs, presentNests } from '../eggs/eggs.includes.ts';
import { eggVariableAttributes } from '../eggs/eggs.presenter.ts';
import { presentLocations } from '../locations/locations.includes.ts';
import { presentAllocations } from '../nodes/allocations.includes.ts';
import { presentNodes } from '../nodes/nodes.includes.ts';
import { presentUsers } from '../users/users.application.includes.ts';
import { applicationServerAttributes } from './servers.application.presenter.ts';
import type { ServerBundle } from './servers.repository.ts';

type Rel = Relationship | typeof NULL_RESOURCE;
type Relationships = Record<string, Rel>;

const unique = <T extends { id: number }>(rows: T[]): T[] => [
  ...new Map(rows.map((r) => [r.id, r])).values(),
];

/** The application `subuser` object (reference §5.1, only as an include); timestamps in UTC. */
function subuserAttributes(s: Subuser) {
  let permissions: unknown;
  try {
    permissions = JSON.parse(s.permissions);
  } catch {
    permissions = [];
  }
  return {
    id: s.id,
    user_id: s.user_id,
    server_id: s.server_id,
    permissions: Array.isArray(permissions) ? (permissions as string[]) : [],
    created_at: atom(s.created_at),
    updated_at: atom(s.updated_at),
  };
}

/** A server variable as `server.relationships.variables` shows it: the egg variable plus its value. */
function serverVariableAttributes(v: ServerBundle['variables'][number]) {
  return { ...eggVariableAttributes(v.variable), server_value: v.value };
}

/**
 * A relationship that every server of the page has, computed for the granted case by `build`
 * (called once for the whole page), a null resource for each server when the ACL refuses it.
 */
async function each(
  rels: Relationships[],
  inc: Includes,
  name: string,
  resource: Parameters<Includes['want']>[1],
  build: () => Promise<(i: number) => Rel>,
): Promise<void> {
  const want = inc.want(name, resource);
  if (want === 'no') return;
  const of = want === 'yes' ? await build() : () => NULL_RESOURCE;
  rels.forEach((rel, i) => {
    rel[name] = of(i);
  });
}

/**
 * Servers as application objects with the requested includes (reference §5.1: `allocations`,
 * `user`, `subusers`, `nest`, `egg`, `variables`, `location`, `node`, `databases`, `transfer`),
 * each loaded with one query for the whole page; included objects get the includes requested
 * below their name (`allocations.node`).
 */
export async function presentServers(src: IncludeSources, servers: Server[], inc: Includes) {
  const bundles = await src.servers.bundles(servers);
  const base = bundles.map(applicationServerAttributes);
  const rels: Relationships[] = servers.map(() => ({}));

  await each(rels, inc, 'allocations', 'r_allocations', async () => {
    const presented = await presentAllocations(
      src,
      bundles.flatMap((b) => b.allocations),
      inc.below('allocations'),
    );
    const byId = new Map(presented.map((a) => [a.id, a]));
    return (i) =>
      relList(
        'allocation',
        bundles[i]!.allocations.map((a) => byId.get(a.id)),
      );
  });

  await each(rels, inc, 'user', 'r_users', async () => {
    const users = await src.applicationUsers.findByIds([...new Set(servers.map((s) => s.owner_id))]);
    const byId = new Map((await presentUsers(src, users, inc.below('user'))).map((u) => [u.id, u]));
    return (i) => {
      const user = byId.get(servers[i]!.owner_id);
      return user ? relItem('user', user) : NULL_RESOURCE;
    };
  });

  await each(rels, inc, 'subusers', 'r_users', async () => {
    const below = inc.below('subusers');
    const subusers = await src.servers.subusersOf(servers.map((s) => s.id));
    const wantUser = below.want('user', 'r_users');
    const wantServer = below.want('server', 'r_servers');
    const users =
      wantUser === 'yes'
        ? await presentUsers(
            src,
            await src.applicationUsers.findByIds([...new Set(subusers.map((s) => s.user_id))]),
            below.below('user'),
          )
        : [];
    const presented = subusers.map((s) => {
      const rel: Relationships = {};
      if (wantUser !== 'no') {
        const user = users.find((u) => u.id === s.user_id);
        rel.user = user ? relItem('user', user) : NULL_RESOURCE;
      }
      if (wantServer !== 'no') {
        // The subuser's server is the server being presented (includes stop at this depth).
        const server = base.find((b) => b.id === s.server_id);
        rel.server = wantServer === 'yes' && server ? relItem('server', server) : NULL_RESOURCE;
      }
      return { server_id: s.server_id, attributes: withRelationships(subuserAttributes(s), rel) };
    });
    return (i) =>
      relList(
        'subuser',
        presented.filter((s) => s.server_id === servers[i]!.id).map((s) => s.attributes),
      );
  });

  await each(rels, inc, 'nest', 'r_nests', async () => {
    const nests = await src.eggs.findNests([...new Set(servers.map((s) => s.nest_id))]);
    const byId = new Map((await presentNests(src, nests, inc.below('nest'))).map((n) => [n.id, n]));
    return (i) => {
      const nest = byId.get(servers[i]!.nest_id);
      return nest ? relItem('nest', nest) : NULL_RESOURCE;
    };
  });

  await each(rels, inc, 'egg', 'r_eggs', async () => {
    const eggs = await presentEggs(src, unique(bundles.map((b) => b.egg)), inc.below('egg'));
    const byId = new Map(eggs.map((e) => [e.id, e]));
    return (i) => relItem('egg', byId.get(servers[i]!.egg_id));
  });

  await each(
    rels,
    inc,
    'variables',
    'r_servers',
    async () => (i) => relList('server_variable', bundles[i]!.variables.map(serverVariableAttributes)),
  );

  await each(rels, inc, 'location', 'r_locations', async () => {
    const locations = await presentLocations(
      src,
      unique(bundles.map((b) => b.location)),
      inc.below('location'),
    );
    const byId = new Map(locations.map((l) => [l.id, l]));
    return (i) => relItem('location', byId.get(bundles[i]!.location.id));
  });

  await each(rels, inc, 'node', 'r_nodes', async () => {
    const nodes = await presentNodes(src, unique(bundles.map((b) => b.node)), inc.below('node'));
    const byId = new Map(nodes.map((n) => [n.id, n]));
    return (i) => relItem('node', byId.get(bundles[i]!.node.id));
  });

  await each(rels, inc, 'databases', 'r_server_databases', async () => {
    const databases = (await src.serverDatabases.listForServers(servers.map((s) => s.id))).map(
      applicationDatabaseAttributes,
    );
    return (i) =>
      relList(
        'server_database',
        databases.filter((d) => d.server === servers[i]!.id),
      );
  });

  // Declared but unimplemented in the original (500 there); a null resource here.
  await each(rels, inc, 'transfer', null, async () => () => NULL_RESOURCE);

  return base.map((attributes, i) => withRelationships(attributes, rels[i]!));
}
