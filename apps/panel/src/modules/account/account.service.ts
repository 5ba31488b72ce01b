import type { User } from '../../db/types.ts';
import { errors, fieldError } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { DeauthorizeService } from '../deauthorize/deauthorize.service.ts';
import type { UsersRepository } from '../users/users.repository.ts';

/** Changes a user makes to their own account. */
export class AccountService {
  constructor(
    private readonly users: UsersRepository,
    private readonly activity: ActivityService,
    private readonly deauthorize: DeauthorizeService,
  ) {}

  /** The current password is checked before anything else, as the original does. */
  private async assertPassword(user: User, password: unknown) {
    if (typeof password !== 'string' || !(await verifyPassword(user.password, password))) {
      throw errors.invalidPassword();
    }
  }

  async changeEmail(user: User, body: Record<string, unknown>, actor: ActivityActor): Promise<void> {
    await this.assertPassword(user, body.password);
    const { email } = check<{ email: string }>(body, { email: 'required|email|between:1,191' });
    const next = email.toLowerCase();
    if (await this.users.emailTaken(next, user.id))
      throw fieldError('email', 'The email has already been taken.', 'unique');
    if (next === user.email) return;
    await this.users.update(user.id, { email: next, updated_at: nowIso() });
    await this.activity.log('user:account.email-changed', actor, [{ type: 'user', id: user.id }], {
      old: user.email,
      new: next,
    });
  }

  /**
   * Changes the password and ends the user's consoles and SFTP sessions on every node (whoever knew
   * the old password is out); the caller ends the user's other panel sessions.
   */
  async changePassword(user: User, body: Record<string, unknown>, actor: ActivityActor): Promise<void> {
    await this.assertPassword(user, body.current_password);
    const { password } = check<{ password: string }>(body, { password: 'required|string|confirmed|min:8' });
    const hash = await hashPassword(password);
    await this.deauthorize.everywhere(user, () =>
      this.users.update(user.id, { password: hash, updated_at: nowIso() }),
    );
    await this.activity.log('user:account.password-changed', actor, [{ type: 'user', id: user.id }]);
  }
}
