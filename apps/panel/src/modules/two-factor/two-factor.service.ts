import type { User } from '../../db/types.ts';
import { errors, HttpError } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { decrypt, encrypt, randomAlnum } from '../../lib/crypto.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { nowIso } from '../../lib/time.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { RecoveryTokensRepository } from './recovery-tokens.repository.ts';
import { newTotpSecret, otpauthUrl, verifyTotp } from './totp.ts';

const INVALID_PASSWORD = 'The password provided was not valid.';

/** TOTP two-factor: set-up, enable with recovery tokens, disable, and verification at sign-in. */
export class TwoFactorService {
  constructor(
    private readonly users: UsersRepository,
    private readonly tokens: RecoveryTokensRepository,
    private readonly appKey: Buffer,
    private readonly siteName: () => string,
  ) {}

  /** A new secret on every call, until two-factor is enabled. */
  async setup(user: User): Promise<{ image_url_data: string; secret: string }> {
    if (user.use_totp)
      throw errors.badRequest('Two-factor authentication is already enabled on this account.');
    const secret = newTotpSecret();
    await this.users.update(user.id, { totp_secret: encrypt(this.appKey, secret), updated_at: nowIso() });
    return { image_url_data: otpauthUrl(this.siteName(), user.email, secret), secret };
  }

  /** Enables two-factor from a code of the pending secret; returns 10 single-use recovery tokens. */
  async enable(user: User, input: Record<string, unknown>): Promise<string[]> {
    const body = check<{ code: string; password?: string | null }>(input, {
      code: 'required|string|size:6',
      password: 'sometimes|nullable|string',
    });
    if (body.password !== undefined && !(await verifyPassword(user.password, body.password ?? ''))) {
      throw errors.badRequest(INVALID_PASSWORD);
    }
    if (user.use_totp)
      throw errors.badRequest('Two-factor authentication is already enabled on this account.');
    if (!user.totp_secret) {
      throw errors.badRequest(
        'Two-factor authentication has not been set up yet: request a new secret first.',
      );
    }
    const step = await verifyTotp(decrypt(this.appKey, user.totp_secret), body.code, null);
    const now = nowIso();
    // Enabling uses the code up: of two requests with the same code, only one turns it on.
    if (step === null || !(await this.tokens.enableTotp(user.id, user.totp_secret, step, now))) {
      throw new HttpError(
        400,
        'TwoFactorAuthenticationTokenInvalid',
        'The provided two-factor authentication token was not valid.',
      );
    }
    const plain = Array.from({ length: 10 }, () => randomAlnum(10));
    await this.tokens.replace(user.id, await Promise.all(plain.map((t) => hashPassword(t))), now);
    return plain;
  }

  /** Disables two-factor; the secret and recovery tokens are deleted, not kept. */
  async disable(user: User, password: unknown): Promise<void> {
    if (typeof password !== 'string' || !(await verifyPassword(user.password, password))) {
      throw errors.badRequest(INVALID_PASSWORD);
    }
    await this.users.update(user.id, {
      use_totp: 0,
      totp_secret: null,
      totp_authenticated_at: null,
      totp_last_step: null,
      updated_at: nowIso(),
    });
    await this.tokens.clear(user.id);
  }

  /** Checks a sign-in code; a code is accepted once. */
  async verifyCode(user: User, code: string): Promise<boolean> {
    if (!user.totp_secret) return false;
    const step = await verifyTotp(decrypt(this.appKey, user.totp_secret), code, user.totp_last_step);
    // Atomic: of two requests with the same code (here or on another panel), one wins.
    return step !== null && this.tokens.claimTotpStep(user.id, step, nowIso());
  }

  /** Uses up one recovery token; false when none matches. */
  async useRecoveryToken(user: User, token: string): Promise<boolean> {
    for (const row of await this.tokens.forUser(user.id)) {
      if (await verifyPassword(row.token, token)) return this.tokens.consume(row.id);
    }
    return false;
  }
}
