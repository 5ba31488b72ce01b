import { generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238: SHA-1, 6 digits, 30 s. One step either side is accepted for clock drift. */
const TOLERANCE_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth URL the web app renders as a QR code; the issuer is the site name without spaces. */
export function otpauthUrl(siteName: string, email: string, secret: string): string {
  return generateURI({ issuer: siteName.replace(/\s+/gu, ''), label: email, secret });
}

/**
 * Verifies a code and returns its time step, or null. Codes at or before `afterStep` are refused,
 * so a code (or an older one) can never be used twice.
 */
export async function verifyTotp(
  secret: string,
  code: string,
  afterStep: number | null,
): Promise<number | null> {
  if (!/^\d{6}$/u.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
