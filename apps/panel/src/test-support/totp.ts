import { generate } from 'otplib';
import type { User } from '../db/types.ts';
import type { TestPanel } from './panel.ts';

/** The TOTP code of `secret` at now + `offsetSeconds` (30 = the next step). */
export function totpCode(secret: string, offsetSeconds = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });
}

/**
 * Turns two-factor on for `user` through the service (set-up + a valid code) and returns the
 * secret and the recovery tokens. The code used is the current step's, so a sign-in right after
 * needs the next step's code (`totpCode(secret, 30)`).
 */
export async function enableTwoFactor(
  panel: TestPanel,
  user: User,
): Promise<{ secret: string; tokens: string[] }> {
  const { secret } = await panel.ctx.services.twoFactor.setup(user);
  const fresh = (await panel.ctx.repositories.users.findById(user.id))!;
  const tokens = await panel.ctx.services.twoFactor.enable(fresh, { code: await totpCode(secret) });
  return { secret, tokens };
}
