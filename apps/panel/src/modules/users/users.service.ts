import { randomUUID } from 'node:crypto';
import type { User } from '../../db/types.ts';
import { fieldError } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { randomAlnum } from '../../lib/crypto.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { nowIso } from '../../lib/time.ts';
import type { DeauthorizeService } from '../deauthorize/deauthorize.service.ts';
import type { UsersRepository } from './users.repository.ts';

export interface CreateUserInput {
  email: string;
  username: string;
  name_first?: string | null;
  name_last?: string | null;
  password?: string | null;
  root_admin?: boolean;
  language?: string;
  external_id?: string | null;
}

export const USER_RULES = {
  external_id: 'sometimes|nullable|string|max:191',
  email: 'required|email|between:1,191',
  username: 'required|between:1,191|p_username',
  name_first: 'sometimes|nullable|string|between:1,191',
  name_last: 'sometimes|nullable|string|between:1,191',
  password: 'sometimes|nullable|string|min:8',
  language: 'sometimes|string|in:en',
};

/** Accounts: creation (CLI, first start, admin API later) and the account changes of the client API. */
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly deauthorize: DeauthorizeService,
  ) {}

  async create(input: CreateUserInput): Promise<{ user: User; password: string }> {
    check(input, USER_RULES);
    if (await this.users.emailTaken(input.email)) {
      throw fieldError('email', 'The email has already been taken.', 'unique');
    }
    if (await this.users.usernameTaken(input.username)) {
      throw fieldError('username', 'The username has already been taken.', 'unique');
    }
    const password = input.password ?? randomAlnum(24);
    const now = nowIso();
    const user = await this.users.insert({
      uuid: randomUUID(),
      external_id: input.external_id ?? null,
      username: input.username.toLowerCase(),
      email: input.email.toLowerCase(),
      name_first: input.name_first ?? input.username,
      name_last: input.name_last ?? '',
      password: await hashPassword(password),
      language: input.language ?? 'en',
      root_admin: input.root_admin ? 1 : 0,
      use_totp: 0,
      totp_secret: null,
      totp_authenticated_at: null,
      totp_last_step: null,
      gravatar: 1,
      created_at: now,
      updated_at: now,
    });
    return { user, password };
  }

  /** A new password; the user's consoles and SFTP sessions end on every node. */
  async setPassword(user: User, password: string): Promise<void> {
    check({ password }, { password: 'required|string|min:8' });
    const hash = await hashPassword(password);
    await this.deauthorize.everywhere(user, () =>
      this.users.update(user.id, { password: hash, updated_at: nowIso() }),
    );
  }

  async setEmail(user: User, email: string): Promise<void> {
    await this.users.update(user.id, { email: email.toLowerCase(), updated_at: nowIso() });
  }
}
