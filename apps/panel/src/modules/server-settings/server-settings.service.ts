import { check } from '../../http/input.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { ServerManagementService } from '../servers/server-management.service.ts';
import type { PermittedServerAccess } from '../servers/server-access.ts';
import type { ServersRepository } from '../servers/servers.repository.ts';

/**
 * What a server's users change about the server itself through the client API (reference §3.3
 * "Settings"): its name and description, and a reinstall. The docker image lives with startup.
 *
 * Checks run in the reference's order (§2.9): server state (409, the route's guard), then
 * permission (403), then input (422).
 */
export class ServerSettingsService {
  constructor(
    private readonly repo: ServersRepository,
    private readonly management: ServerManagementService,
    private readonly activity: ActivityService,
  ) {}

  /**
   * POST /settings/rename. An absent `description` keeps the current one; a null or empty one
   * clears it. Each change that really happened is logged with its old and new value.
   */
  async rename(access: PermittedServerAccess, body: unknown, actor: ActivityActor): Promise<void> {
    const input = check<{ name: string; description?: string | null }>(body, {
      name: 'required|string|min:1|max:191',
      description: 'nullable|string',
    });
    const { server } = access;
    const name = input.name;
    const description = 'description' in input ? (input.description ?? '') : server.description;
    if (name === server.name && description === server.description) return;
    await this.repo.update(server.id, { name, description, updated_at: nowIso() });
    const subjects = [{ type: 'server', id: server.id }];
    if (name !== server.name) {
      await this.activity.log('server:settings.rename', actor, subjects, { old: server.name, new: name });
    }
    if (description !== server.description) {
      await this.activity.log('server:settings.description', actor, subjects, {
        old: server.description,
        new: description,
      });
    }
  }

  /** POST /settings/reinstall: the same reinstall operators start from the application API. */
  async reinstall(access: PermittedServerAccess, actor: ActivityActor): Promise<void> {
    await this.management.reinstall(access.server, actor);
  }
}
