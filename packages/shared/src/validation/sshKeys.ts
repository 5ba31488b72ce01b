import * as z from 'zod/mini';
import { requiredString } from './auth.ts';

/** SSH key name length limit (the API's rule: max 191). */
export const SSH_KEY_NAME_MAX = 191;

/**
 * Messages of the account's Add SSH Key form. The spec has no such form; the texts are ours. The
 * panel checks the key itself (type, size, duplicates) and answers with its own message.
 */
export const SSH_KEY_VALIDATION_MESSAGES = {
  nameRequired: 'A name for this SSH key is required.',
  nameMax: 'The name must not exceed 191 characters.',
  keyRequired: 'A public key must be provided.',
  keyPrivate:
    'This is a private key: paste the public key (the .pub file) instead, and keep the private key secret.',
  keyShape:
    'This does not look like a public key: paste the line from your .pub file, which starts with ssh-ed25519, ssh-rsa or ecdsa-sha2-.',
} as const;

const M = SSH_KEY_VALIDATION_MESSAGES;

/** An OpenSSH public key line (`type base64 [comment]`) or a PEM public key block. */
const PUBLIC_KEY =
  /^(?:(?:ssh-|ecdsa-|sk-)[\w@.-]+\s+[A-Za-z0-9+/]+={0,3}(?:\s+.*)?|-----BEGIN (?:RSA |SSH2 )?PUBLIC KEY-----[\s\S]+)$/;

/** What is wrong with a pasted public key, or null when it looks like one. */
export function publicKeyProblem(text: string): string | null {
  const key = text.trim();
  if (key.length === 0) return M.keyRequired;
  if (/PRIVATE KEY/.test(key)) return M.keyPrivate;
  return PUBLIC_KEY.test(key) ? null : M.keyShape;
}

/** Add SSH Key: a name and the public key. */
export const createSshKeySchema = z.object({
  name: requiredString(M.nameRequired, { trim: true }).check(z.maxLength(SSH_KEY_NAME_MAX, M.nameMax)),
  // z.refine with a computed message, not superRefine: every zod function used anywhere in the web
  // app lands in the chunk the sign-in page loads.
  publicKey: z.string().check(
    z.refine((text) => publicKeyProblem(text) === null, {
      error: (issue) => publicKeyProblem(String(issue.input)) ?? M.keyShape,
    }),
  ),
});
export type CreateSshKeyValues = z.infer<typeof createSshKeySchema>;
