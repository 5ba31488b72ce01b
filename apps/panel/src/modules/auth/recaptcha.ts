import type { Config } from '../../config/config.ts';
import { HttpError } from '../../http/errors.ts';

/** Server-side check of a reCAPTCHA response with the provider (only when enabled). */
export async function verifyRecaptcha(
  config: Config['recaptcha'],
  response: unknown,
  ip: string,
): Promise<void> {
  if (!config.enabled) return;
  const fail = () => new HttpError(400, 'HttpException', 'Failed to validate reCAPTCHA data.');
  if (typeof response !== 'string' || response === '') throw fail();
  try {
    const res = await fetch(config.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: config.secretKey, response, remoteip: ip }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json()) as { success?: boolean };
    if (!res.ok || body.success !== true) throw fail();
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw fail();
  }
}
