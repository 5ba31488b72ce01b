import { splitVariableRules, validate } from '@talon/shared';
import { errors, ValidationFailed } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import { startupCommandsOf } from '../eggs/eggs.mapper.ts';
import type { PermittedServerAccess } from '../servers/server-access.ts';
import { eggVariableAttributes, invocation } from '../servers/servers.presenter.ts';
import type { ServerBundle, ServersRepository } from '../servers/servers.repository.ts';

/** The client API's docker image rule: an optional display prefix, then the image reference. */
const CLIENT_IMAGE_RULE = 'regex:/^[\\w#\\.\\/\\- ]*\\|?~?[\\w\\.\\/\\-:@ ]*$/';

/** The egg's images: display name → image reference. */
export function eggImages(bundle: ServerBundle): Record<string, string> {
  const parsed = JSON.parse(bundle.egg.docker_images) as Record<string, string> | null;
  return parsed && !Array.isArray(parsed) ? parsed : {};
}

/**
 * The egg's named start-up commands (PLCN_v3 eggs carry several; others one), and which of them the
 * server runs: null when an administrator wrote the server's command by hand.
 */
export function startupChoices(bundle: ServerBundle) {
  const commands = startupCommandsOf(bundle.egg);
  const selected = commands.find((c) => c.command === bundle.server.startup)?.name ?? null;
  return { startup_commands: commands, startup_command_name: selected };
}

/** Pelican's display order: by the variable's `sort`, those without one after, then as stored. */
function bySort<T extends { variable: { sort: number | null; id: number } }>(variables: T[]): T[] {
  const key = (v: T) => v.variable.sort ?? Number.MAX_SAFE_INTEGER;
  return [...variables].sort((a, b) => key(a) - key(b) || a.variable.id - b.variable.id);
}

/**
 * A server's startup command, variables and image, as its users may change them (reference §3.3).
 * The route's guard has checked the server's state (409); each method checks the permission (403),
 * then its input (422).
 */
export class StartupService {
  constructor(
    private readonly repo: ServersRepository,
    private readonly activity: ActivityService,
  ) {}

  /** GET /startup: user-viewable variables, the command as the caller may see it, the egg's images. */
  async show(access: PermittedServerAccess) {
    const b = await this.repo.bundle(access.server);
    return {
      variables: bySort(b.variables)
        .filter((v) => v.variable.user_viewable === 1)
        .map((v) => eggVariableAttributes(v.variable, v.value)),
      meta: {
        startup_command: invocation(b, access.permissions),
        docker_images: eggImages(b),
        raw_startup_command: b.server.startup,
        // our extension (issue 17): the egg's named commands and the one in use
        ...startupChoices(b),
      },
    };
  }

  /**
   * PUT /startup/command (our extension): run another of the egg's named start-up commands,
   * unless an administrator set the command by hand.
   */
  async setCommand(access: PermittedServerAccess, body: unknown, actor: ActivityActor) {
    const b = await this.repo.bundle(access.server);
    const { startup_commands: commands, startup_command_name: current } = startupChoices(b);
    const { name } = check<{ name: string }>(body, {
      name: [
        'required',
        'string',
        'max:191',
        {
          name: 'in',
          check: (v) => (commands.some((c) => c.name === v) ? null : 'The selected :attribute is invalid.'),
        },
      ],
    });
    if (current === null) {
      throw errors.badRequest(
        "This server's startup command has been manually set by an administrator and cannot be updated.",
      );
    }
    const chosen = commands.find((c) => c.name === name)!;
    if (chosen.name !== current) {
      await this.repo.update(access.server.id, { startup: chosen.command, updated_at: nowIso() });
      await this.activity.log('server:startup.command', actor, [{ type: 'server', id: access.server.id }], {
        old: current,
        new: chosen.name,
      });
    }
    const updated = { ...b, server: { ...b.server, startup: chosen.command } };
    return {
      startup_command: invocation(updated, access.permissions),
      raw_startup_command: chosen.command,
      ...startupChoices(updated),
    };
  }

  /** PUT /startup/variable: one user-editable variable, checked with its own rules. */
  async updateVariable(access: PermittedServerAccess, body: unknown, actor: ActivityActor) {
    const input = check<{ key: string; value: string | null }>(body, {
      key: 'required|string',
      value: 'present',
    });
    const b = await this.repo.bundle(access.server);
    const current = b.variables.find(
      (v) => v.variable.env_variable === input.key && v.variable.user_viewable === 1,
    );
    if (!current) throw errors.badRequest('The environment variable you are trying to edit does not exist.');
    if (current.variable.user_editable !== 1) {
      throw errors.badRequest('The environment variable you are trying to edit is read-only.');
    }
    const value = input.value === null ? null : String(input.value);
    const failures = validate({ value }, { value: splitVariableRules(current.variable.rules) });
    if (failures.length > 0) throw new ValidationFailed(failures);
    await this.repo.updateStartup(access.server.id, { updated_at: nowIso() }, [
      { variableId: current.variable.id, value: value ?? '' },
    ]);
    await this.activity.log('server:startup.edit', actor, [{ type: 'server', id: access.server.id }], {
      variable: input.key,
      old: current.value,
      new: value ?? '',
    });
    const updated = { ...b, variables: b.variables.map((v) => (v === current ? { ...v, value } : v)) };
    return {
      attributes: eggVariableAttributes(current.variable, value === '' ? null : value),
      meta: {
        startup_command: invocation(updated, access.permissions),
        raw_startup_command: b.server.startup,
      },
    };
  }

  /** PUT /settings/docker-image: one of the egg's images, unless an admin set another by hand. */
  async setImage(access: PermittedServerAccess, body: unknown, actor: ActivityActor) {
    const b = await this.repo.bundle(access.server);
    const images = Object.values(eggImages(b));
    const { docker_image: image } = check<{ docker_image: string }>(body, {
      docker_image: [
        'required',
        'string',
        'max:191',
        CLIENT_IMAGE_RULE,
        {
          name: 'in',
          check: (v) => (images.includes(String(v)) ? null : 'The selected :attribute is invalid.'),
        },
      ],
    });
    if (!images.includes(b.server.image)) {
      throw errors.badRequest(
        "This server's Docker image has been manually set by an administrator and cannot be updated.",
      );
    }
    if (image === b.server.image) return;
    await this.repo.update(access.server.id, { image, updated_at: nowIso() });
    await this.activity.log('server:startup.image', actor, [{ type: 'server', id: access.server.id }], {
      old: b.server.image,
      new: image,
    });
  }
}
