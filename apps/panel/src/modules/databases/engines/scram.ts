import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

/**
 * A PostgreSQL SCRAM-SHA-256 password verifier (RFC 5802/7677, the `pg_authid.rolpassword` form).
 * Sent instead of the password in CREATE/ALTER ROLE, PostgreSQL stores it as is, so the plain
 * password never reaches the server's statement log. Our generated passwords are ASCII, for which
 * PostgreSQL's SASLprep changes nothing.
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
