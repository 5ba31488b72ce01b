import type { User } from '../../db/types.ts';
import { errors, ValidationFailed } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { limiterSource, type ThrottleStore } from '../../http/throttle.ts';
import { randomAlnum, safeEqual, sha256Hex } from '../../lib/crypto.ts';
import { hashPassword, needsRehash, verifyPassword } from '../../lib/passwords.ts';
import { nowIso } from '../../lib/time.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { SessionState } from '../sessions/sessions.service.ts';
import type { TwoFactorService } from '../two-factor/two-factor.service.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { DeauthorizeService } from '../deauthorize/deauthorize.service.ts';
import type { PasswordResetsRepository } from './password-resets.repository.ts';

/** Failed sign-ins (password or second factor) allowed per window, per account and source together. */
const LOCKOUT_ATTEMPTS = 5;
const LOCKOUT_WINDOW_MS = 60_000;
const PENDING_LOGIN_MS = 5 * 60_000;
const RESET_TOKEN_MS = 60 * 60_000;
const RESET_RESEND_MS = 60_000;
// A real argon2id hash, verified when the account does not exist so both paths take as long.
let dummyHash: Promise<string> | null = null;

export type LoginResult =
  | { complete: true; user: User; method: 'password' | 'totp' | 'recovery' }
  | { complete: false; confirmationToken: string };

export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

/** What the sign-in service is built from (named, so a wiring mistake cannot swap two of them). */
export interface AuthServiceDeps {
  users: UsersRepository;
  twoFactor: TwoFactorService;
  resets: PasswordResetsRepository;
  activity: ActivityService;
  /** lockout counters (sign-in and two-factor) */
  throttle: ThrottleStore;
  mailer: Mailer;
  appUrl: string;
  siteName: () => string;
  /** ends a user's consoles and SFTP sessions when their password changes */
  deauthorize: DeauthorizeService;
}

/** Sign-in (with the second factor), sign-in lockout and password resets. */
export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  /**
   * The lockout counter: one per account and source together (CVE-2026-61609), never one for the
   * account alone, which would let anyone lock its owner out from everywhere, nor one for the
   * source alone, which would let one account's attacker lock out everyone behind that address. An
   * existing account is counted by its id, so failures by username, by email and at the checkpoint
   * add up; an unknown login by (a hash of) its name. A source trying many accounts meets the
   * per-source request limit of the sign-in routes instead (auth.routes.ts).
   */
  private lockKeys(ip: string, user: User | undefined, login?: string): string[] {
    const source = limiterSource(ip);
    if (user) return [`lockout:user:${user.id}@${source}`];
    // Hashed: a login of any length keeps the key inside the column (varchar 191).
    return login ? [`lockout:login:${sha256Hex(login.toLowerCase())}@${source}`] : [];
  }

  private lockedOut(retryAfter: number): ValidationFailed {
    return new ValidationFailed(
      [
        {
          field: 'email',
          rule: '',
          detail: `Too many login attempts. Please try again in ${retryAfter} seconds.`,
        },
      ],
      429,
      { 'retry-after': String(retryAfter) },
    );
  }

  private async assertNotLocked(keys: string[]): Promise<void> {
    for (const key of keys) {
      const { hits, retryAfter } = await this.deps.throttle.peek(key);
      if (hits >= LOCKOUT_ATTEMPTS) throw this.lockedOut(retryAfter);
    }
  }

  /**
   * Counts the attempt as a failure BEFORE the (slow) check, with one atomic count-and-read per key:
   * a check-then-count lets every parallel guess pass the check while the others are still hashing.
   * A right answer takes its count back (`release`) or clears the counters (`succeed`).
   */
  private async reserveAttempt(keys: string[]): Promise<void> {
    for (const key of keys) {
      const { hits, retryAfter } = await this.deps.throttle.hit(key, LOCKOUT_WINDOW_MS);
      if (hits > LOCKOUT_ATTEMPTS) throw this.lockedOut(retryAfter);
    }
  }

  private async release(keys: string[]): Promise<void> {
    for (const key of keys) await this.deps.throttle.undo(key);
  }

  async login(body: Record<string, unknown>, session: SessionState, meta: RequestMeta): Promise<LoginResult> {
    const login = typeof body.user === 'string' ? body.user : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const user = login ? await this.deps.users.findByLogin(login) : undefined;
    const keys = this.lockKeys(meta.ip, user, login || undefined);
    await this.reserveAttempt(keys);

    const ok = user ? await verifyPassword(user.password, password) : await this.burnTime(password);
    if (!user || !ok) {
      await this.deps.activity.log('auth:fail', { userId: null, apiKeyId: null, ip: meta.ip }, [], {
        username: login,
      });
      throw errors.display('No account matching those credentials could be found.');
    }
    if (needsRehash(user.password)) {
      await this.deps.users.update(user.id, { password: await hashPassword(password) });
    }
    if (!user.use_totp) {
      await this.succeed(user, keys, 'auth:success', meta);
      return { complete: true, user, method: 'password' };
    }
    // The password was right: this attempt is no failure (the second factor counts its own).
    await this.release(keys);
    const token = randomAlnum(64);
    session.data.pendingLogin = {
      userId: user.id,
      tokenHash: sha256Hex(token),
      expiresAt: Date.now() + PENDING_LOGIN_MS,
    };
    return { complete: false, confirmationToken: token };
  }

  async checkpoint(
    body: Record<string, unknown>,
    session: SessionState,
    meta: RequestMeta,
  ): Promise<LoginResult> {
    const input = check<{
      confirmation_token: string;
      authentication_code?: string | number | null;
      recovery_token?: string | null;
    }>(body, {
      confirmation_token: 'required|string',
      authentication_code: 'nullable|numeric|required_without:recovery_token',
      recovery_token: 'nullable|string|required_without:authentication_code',
    });
    const pending = session.data.pendingLogin;
    const user =
      pending && pending.expiresAt > Date.now() ? await this.deps.users.findById(pending.userId) : undefined;
    // Also counted per pending sign-in, so one stolen password cannot have its second factor
    // guessed from many sources at once (5 failures per source each would add up).
    const keys = [
      ...this.lockKeys(meta.ip, user),
      ...(pending ? [`lockout:pending:${pending.tokenHash}`] : []),
    ];
    await this.assertNotLocked(keys);
    if (!pending || !user) {
      throw errors.display(
        'The authentication token provided has expired, please refresh the page and try again.',
      );
    }
    await this.reserveAttempt(keys);
    const invalidCode = 'The two-factor authentication token was invalid.';
    const method = input.recovery_token ? 'recovery-token' : 'code';
    if (!safeEqual(sha256Hex(input.confirmation_token), pending.tokenHash)) {
      throw await this.secondFactorFailed(user, method, meta, invalidCode);
    }
    if (input.recovery_token) {
      if (!(await this.deps.twoFactor.useRecoveryToken(user, input.recovery_token))) {
        throw await this.secondFactorFailed(user, method, meta, 'The recovery token provided is not valid.');
      }
      delete session.data.pendingLogin;
      await this.succeed(user, keys, 'auth:recovery-token', meta);
      return { complete: true, user, method: 'recovery' };
    }
    if (!(await this.deps.twoFactor.verifyCode(user, String(input.authentication_code ?? '')))) {
      throw await this.secondFactorFailed(user, method, meta, invalidCode);
    }
    delete session.data.pendingLogin;
    await this.succeed(user, keys, 'auth:checkpoint', meta);
    return { complete: true, user, method: 'totp' };
  }

  /**
   * A wrong (or replayed) two-factor code or an unknown (or already used) recovery code is a failed
   * sign-in (`auth:fail`, as a wrong password is), about the account whose password was right: its
   * owner sees it in their activity and learns that the password is known. Nobody is signed in, so
   * there is no actor. Returns the error to throw.
   */
  private async secondFactorFailed(
    user: User,
    method: 'code' | 'recovery-token',
    meta: RequestMeta,
    message: string,
  ): Promise<Error> {
    await this.deps.activity.log(
      'auth:fail',
      { userId: null, apiKeyId: null, ip: meta.ip },
      [{ type: 'user', id: user.id }],
      { username: user.username, two_factor: method },
    );
    return errors.display(message);
  }

  private async succeed(user: User, keys: string[], event: string, meta: RequestMeta) {
    for (const key of keys) await this.deps.throttle.clear(key);
    await this.deps.activity.log(event, { userId: user.id, apiKeyId: null, ip: meta.ip }, [
      { type: 'user', id: user.id },
    ]);
  }

  private async burnTime(password: string): Promise<false> {
    dummyHash ??= hashPassword(randomAlnum(32));
    await verifyPassword(await dummyHash, password);
    return false;
  }

  /** Sends a reset link when the account exists; the caller's answer never says whether it does. */
  async requestReset(body: Record<string, unknown>): Promise<void> {
    const { email } = check<{ email: string }>(body, { email: 'required|email' });
    const user = await this.deps.users.findByEmail(email);
    if (!user) return;
    const latest = await this.deps.resets.latestFor(user.email);
    if (latest && Date.now() - Date.parse(latest.created_at) < RESET_RESEND_MS) return;
    const token = randomAlnum(64);
    await this.deps.resets.insert(user.email, sha256Hex(token), nowIso());
    const link = `${this.deps.appUrl}/auth/password/reset/${token}?email=${encodeURIComponent(user.email)}`;
    await this.deps.mailer.send({
      to: user.email,
      subject: `${this.deps.siteName()}: reset your password`,
      text: [
        `Hello ${user.name_first || user.username},`,
        '',
        'Someone asked to reset the password of your account. To choose a new password, open this link:',
        '',
        link,
        '',
        'The link works once, for 60 minutes. If you did not ask for this, you can ignore this mail.',
      ].join('\n'),
    });
  }

  /** Sets a new password from a mailed token; returns the user so the caller can sign them in. */
  async reset(body: Record<string, unknown>): Promise<User> {
    const input = check<{ token: string; email: string; password: string }>(body, {
      token: 'required|string',
      email: 'required|email',
      password: 'required|string|confirmed|min:8',
    });
    const invalid = () => errors.display('This password reset token is invalid.');
    const user = await this.deps.users.findByEmail(input.email);
    const row = user ? await this.deps.resets.latestFor(user.email) : undefined;
    // Unknown account and wrong token answer alike, so the form cannot be used to find accounts.
    if (!user || !row || !safeEqual(sha256Hex(input.token), row.token_hash)) throw invalid();
    if (Date.now() - Date.parse(row.created_at) > RESET_TOKEN_MS) {
      await this.deps.resets.clear(user.email);
      throw invalid();
    }
    await this.deps.resets.clear(user.email);
    const hash = await hashPassword(input.password);
    // Whoever knew the old password loses their consoles and SFTP sessions too.
    await this.deps.deauthorize.everywhere(user, () =>
      this.deps.users.update(user.id, { password: hash, updated_at: nowIso() }),
    );
    await this.deps.activity.log('auth:password-reset', { userId: user.id, apiKeyId: null, ip: null }, [
      { type: 'user', id: user.id },
    ]);
    return user;
  }
}
