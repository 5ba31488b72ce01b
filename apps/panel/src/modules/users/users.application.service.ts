import { randomUUID } from 'node:crypto';
import type { CustomRule } from '@talon/shared';
import type { User } from '../../db/types.ts';
import { errors } from '../../http/errors.ts';
import { randomAlnum } from '../../lib/crypto.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { ListParams } from '../application/listing.ts';
import type { DeauthorizeService } from '../deauthorize/deauthorize.service.ts';
import { flag, unique, validateBody } from '../application/validation.ts';
import type { ApplicationUsersRepository } from './users.application.repository.ts';
import type { UsersRepository } from './users.repository.ts';
import type { WelcomeMail } from './welcome-mail.ts';

/**
 * The reference's username rule (checked lower-cased): starts and ends alphanumeric, so at least
 * three characters, which is stricter than the shared rule the CLI uses.
 */
const P_USERNAME: CustomRule = {
  name: 'p_username',
  check: (value) =>
    typeof value === 'string' && /^[a-z0-9][\w.-]+[a-z0-9]$/u.test(value.toLowerCase())
      ? null
      : 'The :attribute must start and end with alpha-numeric characters and contain only letters, numbers, dashes, underscores, and periods.',
};

const RULES = {
  external_id: 'sometimes|nullable|string|max:191',
  email: 'required|email|between:1,191',
  username: ['required', 'between:1,191', P_USERNAME],
  first_name: 'required|string|between:1,191',
  last_name: 'required|string|between:1,191',
  password: 'sometimes|nullable|string',
  language: 'sometimes|string|in:en',
  root_admin: 'sometimes|boolean',
} as const;

const LABELS = { external_id: 'Third Party Identifier', root_admin: 'Root Administrator Status' };

interface UserBody {
  external_id?: string | null;
  email: string;
  username: string;
  first_name: string;
  last_name: string;
  password?: string | null;
  language?: string;
  root_admin?: unknown;
}

/**
 * Root admin rights, and the credentials of a root admin (password, email: where a reset link goes,
 * two-factor), change only in a root admin's own session, never with an API key: a billing
 * module's key, leaked or not, must not make an administrator or take one over (docs/security.md).
 * Names, username and external id stay open to keys, as billing modules sync them. A key's request
 * is refused whole with 403, after its body is valid (what it would change is known only then).
 * `input` null: the action is on the credentials themselves (turning two-factor off).
 */
function refuseKeyOnRootAdmins(actor: ActivityActor, target: User | null, input: UserBody | null): void {
  if (actor.apiKeyId === null) return;
  const wantsRoot = input?.root_admin === undefined ? null : flag(input.root_admin);
  const isRoot = target?.root_admin ?? 0;
  const grantsOrRevokes = wantsRoot !== null && wantsRoot !== isRoot;
  const touchesCredentials =
    isRoot === 1 &&
    (input === null || Boolean(input.password) || input.email.toLowerCase() !== target?.email);
  if (grantsOrRevokes || touchesCredentials) throw errors.forbidden();
}

/** Users of the application API: list, lookup, create (with the welcome mail), update, delete. */
export class ApplicationUsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly repo: ApplicationUsersRepository,
    private readonly activity: ActivityService,
    private readonly welcome: WelcomeMail,
    private readonly deauthorize: DeauthorizeService,
  ) {}

  list(params: ListParams) {
    return this.repo.list(params);
  }

  async get(id: number): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) throw errors.notFound();
    return user;
  }

  async getByExternalId(externalId: string): Promise<User> {
    const user = await this.repo.findByExternalId(externalId);
    if (!user) throw errors.notFound();
    return user;
  }

  private validate(body: unknown, exceptId?: number): Promise<UserBody> {
    return validateBody<UserBody>(body, RULES, LABELS, {
      external_id: unique((v) => this.repo.externalIdTaken(String(v), exceptId)),
      email: unique((v) => this.users.emailTaken(String(v), exceptId)),
      username: unique((v) => this.users.usernameTaken(String(v), exceptId)),
    });
  }

  async create(body: unknown, actor: ActivityActor): Promise<User> {
    const input = await this.validate(body);
    refuseKeyOnRootAdmins(actor, null, input);
    const now = nowIso();
    const user = await this.users.insert({
      uuid: randomUUID(),
      external_id: input.external_id ?? null,
      username: input.username.toLowerCase(),
      email: input.email.toLowerCase(),
      name_first: input.first_name,
      name_last: input.last_name,
      password: await hashPassword(input.password ?? randomAlnum(48)),
      language: input.language ?? 'en',
      root_admin: flag(input.root_admin),
      use_totp: 0,
      totp_secret: null,
      totp_authenticated_at: null,
      totp_last_step: null,
      gravatar: 1,
      created_at: now,
      updated_at: now,
    });
    await this.activity.log('user:create', actor, [{ type: 'user', id: user.id }], {
      username: user.username,
    });
    await this.welcome.send(user, { withSetupLink: !input.password });
    return user;
  }

  /** PATCH replaces the whole record: required fields are required again; no password keeps it. */
  async update(id: number, body: unknown, actor: ActivityActor): Promise<User> {
    const user = await this.get(id);
    const input = await this.validate(body, user.id);
    refuseKeyOnRootAdmins(actor, user, input);
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    const rootAdmin = input.root_admin === undefined ? user.root_admin : flag(input.root_admin);
    const write = () =>
      this.users.update(user.id, {
        external_id: 'external_id' in input ? (input.external_id ?? null) : user.external_id,
        username: input.username.toLowerCase(),
        email: input.email.toLowerCase(),
        name_first: input.first_name,
        name_last: input.last_name,
        ...(passwordHash ? { password: passwordHash } : {}),
        language: input.language ?? user.language,
        root_admin: rootAdmin,
        updated_at: nowIso(),
      });
    // A new password, or root admin rights taken away: the user's consoles and SFTP sessions end.
    const losesAccess = passwordHash !== null || rootAdmin < user.root_admin;
    await (losesAccess ? this.deauthorize.everywhere(user, write) : write());
    await this.activity.log('user:update', actor, [{ type: 'user', id: user.id }], {
      password_changed: Boolean(input.password),
    });
    return this.get(user.id);
  }

  /**
   * An administrator turns a user's two-factor off (no password asked: the user has lost their
   * device). The secret and recovery tokens are deleted, as when users turn it off themselves.
   */
  async disableTwoFactor(id: number, actor: ActivityActor): Promise<void> {
    const user = await this.get(id);
    refuseKeyOnRootAdmins(actor, user, null);
    await this.repo.clearTwoFactor(user.id, nowIso());
    await this.activity.log('user:two-factor.delete', actor, [{ type: 'user', id: user.id }], {
      by_administrator: true,
      was_enabled: user.use_totp === 1,
    });
  }

  async delete(id: number, actor: ActivityActor): Promise<void> {
    const user = await this.get(id);
    if (await this.repo.ownsServers(user.id)) {
      throw errors.display(
        'Cannot delete a user with active servers attached to their account. Please delete their servers before continuing.',
      );
    }
    await this.deauthorize.everywhere(user, () => this.repo.delete(user.id));
    await this.activity.log('user:delete', actor, [], { id: user.id, username: user.username });
  }
}
