import { can } from '@talon/shared';
import type { Server, Task } from '../../db/types.ts';
import type { SubusersRepository } from '../subusers/subusers.repository.ts';
import type { UsersRepository } from '../users/users.repository.ts';

/**
 * The permission a task's action needs (CVE-2026-86177), the same one the action needs when a user
 * does it by hand: `control.console` for a command, `backup.create` for a backup, and for a power
 * action the signal's own (`kill` is a forced stop, so `control.stop`, as on the websocket).
 * `schedule.update` only lets a user arrange tasks whose actions they may do themselves.
 */
export function taskPermission(action: string, payload: string): string {
  if (action === 'command') return 'control.console';
  if (action === 'backup') return 'backup.create';
  const signal = payload.trim();
  return signal === 'kill' ? 'control.stop' : `control.${signal}`;
}

/**
 * Why a saved task may not run now, or null when it may: its saver must still hold its action's
 * permission on the server (the owner and root admins hold all). Tasks saved before savers were
 * recorded (`saved_by` null) run as they always did.
 */
export async function taskRefusal(
  repos: { users: Pick<UsersRepository, 'findById'>; subusers: Pick<SubusersRepository, 'find'> },
  server: Pick<Server, 'id' | 'owner_id'>,
  task: Pick<Task, 'action' | 'payload' | 'saved_by'>,
): Promise<string | null> {
  if (task.saved_by === null || task.saved_by === server.owner_id) return null;
  const user = await repos.users.findById(task.saved_by);
  if (!user) return 'the user who saved the task no longer exists';
  if (user.root_admin === 1) return null;
  const needed = taskPermission(task.action, task.payload);
  const subuser = await repos.subusers.find(server.id, user.id);
  if (subuser && can(JSON.parse(subuser.permissions) as string[], needed)) return null;
  return `the user who saved the task (${user.username}) no longer has ${needed} on this server`;
}
