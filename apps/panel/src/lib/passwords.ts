import { hash, verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';

/** New hashes are argon2id; bcrypt hashes imported from Pterodactyl (`$2y$`, `$2b$`) still verify. */
export async function hashPassword(password: string): Promise<string> {
  // 2 = Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax)
  return hash(password, { algorithm: 2 });
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  if (/^\$2[aby]\$/u.test(stored)) return bcrypt.compare(password, stored.replace(/^\$2y\$/u, '$2b$'));
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** True when the stored hash should be replaced by an argon2id one after a successful sign-in. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith('$argon2id$');
}
