import type { AppContext } from '../context.ts';
import { LOCAL_NODE_NAME } from './local-node.ts';

/**
 * Whether `nodeId` is the embedded default's node, whose daemon the panel itself configures and
 * starts (the same rule as `startLocalDaemon`: the local daemon is on, and the first node is the
 * local one). Such a node needs no setup command.
 */
export async function isEmbeddedNode(ctx: AppContext, nodeId: number): Promise<boolean> {
  if (!ctx.config.localDaemon.enabled) return false;
  const first = await ctx.db.db
    .selectFrom('nodes')
    .select(['id', 'name'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return first?.id === nodeId && first.name === LOCAL_NODE_NAME;
}
