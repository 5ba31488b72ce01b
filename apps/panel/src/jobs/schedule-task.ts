import { POWER_ACTIONS, type PowerAction } from '@talon/shared';
import type { AppContext } from '../context.ts';
import type { Server, Task } from '../db/types.ts';
import { taskRefusal } from '../modules/schedules/task-permissions.ts';

/** A task not run because its saver no longer holds its action's permission (CVE-2026-86177). */
export class TaskRefused extends Error {}

/**
 * Runs one task against its server: `command` to the console, `power` as the signal, `backup`
 * through the backup service as a scheduled backup (rotating the oldest unlocked one at the
 * limit). Throws when the task fails, including when the server is in a conflict state
 * (installing, suspended, restoring a backup…), and {@link TaskRefused} when the user who saved
 * it no longer may do its action.
 */
export async function runTask(
  ctx: Pick<AppContext, 'repositories' | 'services'>,
  task: Task,
  serverId: number,
) {
  const server = await ctx.repositories.servers.findById(serverId);
  if (!server) throw new Error('the server no longer exists');
  const refusal = await taskRefusal(ctx.repositories, server, task);
  if (refusal) throw new TaskRefused(refusal);
  if (server.status !== null) throw new Error(`the server is ${server.status}`);
  const node = await ctx.repositories.servers.findNode(server.node_id);
  if (!node) throw new Error('the server has no node');
  const daemon = ctx.services.servers.daemonClient;
  switch (task.action) {
    case 'command':
      await daemon.commands(node, server.uuid, [task.payload]);
      return;
    case 'power':
      await daemon.power(node, server.uuid, powerAction(task.payload));
      return;
    case 'backup':
      await ctx.services.backups.createBackup(server, { ignored: task.payload, scheduled: true }, node);
      return;
    default:
      throw new Error(`unknown task action ${task.action}`);
  }
}

/** Whether the daemon reports the server running (the `only_when_online` check). */
export async function isRunning(ctx: Pick<AppContext, 'repositories' | 'services'>, server: Server) {
  const node = await ctx.repositories.servers.findNode(server.node_id);
  if (!node) return false;
  try {
    return (await ctx.services.servers.daemonClient.server(node, server.uuid)).state === 'running';
  } catch {
    return false;
  }
}

function powerAction(payload: string): PowerAction {
  const action = POWER_ACTIONS.find((a) => a === payload.trim());
  if (!action) throw new Error(`"${payload}" is not a power action`);
  return action;
}
