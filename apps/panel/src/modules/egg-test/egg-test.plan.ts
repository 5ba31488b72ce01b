import {
  EGG_TEST_DEFAULT_TIMEOUT,
  EGG_TEST_MAX_TIMEOUT,
  type EggTestRequest,
} from '@talon/shared/admin/egg-test-wire';
import type { AppContext } from '../../context.ts';
import type { Egg, Node, User } from '../../db/types.ts';
import { ValidationFailed } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { envString, findRow, validateVariables } from '../servers/server-creation.service.ts';

/** Everything a run needs, checked before anything is created. */
export interface EggTestPlan {
  egg: Egg;
  node: Node;
  /** The free allocation the throwaway server takes. */
  allocation: number;
  /** Every variable of the egg: its default unless the request gave a value. */
  environment: Record<string, string>;
  timeoutMs: number;
  /** Who owns the throwaway server: the root admin who asked for the test. */
  owner: User;
}

const invalid = (field: string, rule: string, detail: string) =>
  new ValidationFailed([{ field, rule, detail }]);

/**
 * The request checked as the application API checks input: Laravel-style 422s naming the field
 * (`egg`, `node`, `timeout`, `environment.<NAME>`) and nothing created when one fails.
 */
export async function planEggTest(ctx: AppContext, body: unknown, owner: User): Promise<EggTestPlan> {
  const input = check<EggTestRequest>(body, {
    egg: 'required|integer',
    node: 'sometimes|nullable|integer',
    environment: 'sometimes|nullable|array',
    timeout: `sometimes|nullable|integer|between:1,${EGG_TEST_MAX_TIMEOUT}`,
  });
  const egg = await findRow(Number(input.egg), (id) => ctx.repositories.eggs.findEgg(id));
  if (!egg) throw invalid('egg', 'exists', 'The selected egg is invalid.');

  let node: Node | undefined;
  let allocation: number | undefined;
  if (input.node != null) {
    node = await findRow(Number(input.node), (id) => ctx.repositories.nodes.findById(id));
    if (!node) throw invalid('node', 'exists', 'The selected node is invalid.');
    allocation = (await ctx.repositories.allocations.forNodes([node.id])).find(
      (a) => a.server_id === null,
    )?.id;
    if (allocation === undefined)
      throw invalid(
        'node',
        'allocation',
        `The node "${node.name}" has no free allocation: add one to it first.`,
      );
  } else {
    const free = (await ctx.repositories.allocations.forNodes(await allNodeIds(ctx))).find(
      (a) => a.server_id === null,
    );
    if (!free) throw invalid('node', 'allocation', 'No node has a free allocation: add one to a node first.');
    node = (await ctx.repositories.nodes.findById(free.node_id))!;
    allocation = free.id;
  }

  const variables = await ctx.repositories.eggs.variables(egg.id);
  const given: Record<string, unknown> = input.environment ?? {};
  const unknown = Object.keys(given).filter((k) => !variables.some((v) => v.env_variable === k));
  if (unknown.length > 0)
    throw new ValidationFailed(
      unknown.map((name) => ({
        field: `environment.${name}`,
        rule: 'exists',
        detail: `The egg has no variable ${name}.`,
      })),
    );
  const environment: Record<string, string> = {};
  for (const v of variables) {
    const value = given[v.env_variable];
    environment[v.env_variable] = value === undefined ? v.default_value : envString(value);
  }
  validateVariables(variables, environment);

  return {
    egg,
    node,
    allocation,
    environment,
    timeoutMs: (input.timeout ?? EGG_TEST_DEFAULT_TIMEOUT) * 1000,
    owner,
  };
}

async function allNodeIds(ctx: AppContext): Promise<number[]> {
  const rows = await ctx.db.db.selectFrom('nodes').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}
