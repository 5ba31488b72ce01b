import type { AppContext } from '../../context.ts';
import { NodeSetupRepository } from './node-setup.repository.ts';
import { NodeSetupService } from './node-setup.service.ts';

/** The setup-token service of a panel; `now` is the clock (tests pass their own). */
export function nodeSetupService(ctx: Pick<AppContext, 'db' | 'services' | 'config'>, now?: () => number) {
  return new NodeSetupService(
    new NodeSetupRepository(ctx.db.db),
    ctx.services.nodes,
    ctx.services.activity,
    ctx.config.appKey,
    ctx.config.appUrl,
    now,
  );
}
