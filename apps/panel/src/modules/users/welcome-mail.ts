import type { Logger } from 'pino';
import type { User } from '../../db/types.ts';
import { randomAlnum, sha256Hex } from '../../lib/crypto.ts';
import { nowIso } from '../../lib/time.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { PasswordResetsRepository } from '../auth/password-resets.repository.ts';

/** Mailed setup links are password-reset tokens, so they expire as those do. */
const SETUP_LINK_MINUTES = 60;

/**
 * The "your account was created" mail, for accounts made by someone else (an administrator, or a
 * server owner inviting a new email as a subuser). Without a chosen password it carries a link to
 * choose one: a password-reset token, used on the reset page like any other.
 */
export class WelcomeMail {
  constructor(
    private readonly resets: PasswordResetsRepository,
    private readonly mailer: Mailer,
    private readonly log: Logger,
    private readonly appUrl: string,
    private readonly siteName: () => string,
  ) {}

  /**
   * Sends it; `reason` is an extra paragraph saying why the account exists; `greet` the name the
   * mail greets (default: the first name, else the username; empty: a plain "Hello,"). A mail
   * failure is logged, not reported: the account exists either way, and "Forgot password?" still works.
   */
  async send(user: User, opts: { withSetupLink: boolean; reason?: string; greet?: string }): Promise<void> {
    const greet = opts.greet ?? (user.name_first || user.username);
    const lines = [
      greet ? `Hello ${greet},` : 'Hello,',
      '',
      `An account was created for you on ${this.siteName()}.`,
      ...(opts.reason ? ['', opts.reason] : []),
      '',
      `Username: ${user.username}`,
      `Email: ${user.email}`,
      `Panel: ${this.appUrl}`,
    ];
    try {
      if (opts.withSetupLink) {
        const token = randomAlnum(64);
        await this.resets.insert(user.email, sha256Hex(token), nowIso());
        const link = `${this.appUrl}/auth/password/reset/${token}?email=${encodeURIComponent(user.email)}`;
        lines.push(
          '',
          'To choose your password, open this link:',
          '',
          link,
          '',
          `The link works once, for ${SETUP_LINK_MINUTES} minutes. Afterwards, use "Forgot password?" on the sign-in page.`,
        );
      }
      await this.mailer.send({
        to: user.email,
        subject: `${this.siteName()}: your account`,
        text: lines.join('\n'),
      });
    } catch (e) {
      this.log.warn({ err: e, userId: user.id }, 'The account mail could not be sent');
    }
  }
}
