import type { Kysely } from 'kysely';
import type { Database, Node, User } from '../../db/types.ts';

/** The servers of one node a user reaches, by uuid. */
export interface NodeReach {
  node: Node;
  servers: string[];
}

/** Where a user can have open consoles, SFTP sessions or tokens: the servers they reach, by node. */
export class DeauthorizeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Every server the user reaches, grouped by node: owned or shared with them as a subuser; a root
   * admin reaches every server. Two queries, however many servers and nodes.
   */
  async reach(user: Pick<User, 'id' | 'root_admin'>): Promise<NodeReach[]> {
    let query = this.db.selectFrom('servers').select(['servers.uuid', 'servers.node_id']);
    if (user.root_admin !== 1) {
      query = query.where((eb) =>
        eb.or([
          eb('servers.owner_id', '=', user.id),
          eb(
            'servers.id',
            'in',
            eb.selectFrom('subusers').select('subusers.server_id').where('subusers.user_id', '=', user.id),
          ),
        ]),
      );
    }
    const servers = await query.orderBy('servers.id').execute();
    if (servers.length === 0) return [];
    const nodeIds = [...new Set(servers.map((s) => s.node_id))];
    const nodes = await this.db
      .selectFrom('nodes')
      .selectAll()
      .where('id', 'in', nodeIds)
      .orderBy('id')
      .execute();
    return nodes.map((node) => ({
      node,
      servers: servers.filter((s) => s.node_id === node.id).map((s) => s.uuid),
    }));
  }
}
