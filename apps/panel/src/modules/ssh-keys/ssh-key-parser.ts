import { createHash, createPublicKey } from 'node:crypto';
import ssh2, { type ParsedKey } from 'ssh2';

const { utils } = ssh2;

export interface ParsedSshKey {
  fingerprint: string;
  /** PKCS#8 / SPKI PEM (`-----BEGIN PUBLIC KEY-----`) */
  pem: string;
}

/** Parses an OpenSSH or PEM public key; returns the reason it cannot be used as a string. */
export function parseSshPublicKey(input: string): ParsedSshKey | string {
  const invalid = 'The public key provided is not valid.';
  const parsed: ParsedKey | Error = utils.parseKey(input.trim());
  if (parsed instanceof Error) {
    // ssh2 reads OpenSSH and PKCS#1 forms; SPKI PEM goes through node:crypto.
    try {
      const key = createPublicKey(input.trim());
      const spki = key.export({ type: 'spki', format: 'pem' }).toString();
      const again: ParsedKey | Error = utils.parseKey(
        key.export({ format: 'pem', type: key.asymmetricKeyType === 'rsa' ? 'pkcs1' : 'spki' }).toString(),
      );
      if (again instanceof Error) return invalid;
      return finish(again, spki);
    } catch {
      return invalid;
    }
  }
  return finish(parsed, null);
}

function finish(parsed: ParsedKey, spki: string | null): ParsedSshKey | string {
  if (parsed.isPrivateKey()) return 'The public key provided is not valid.';
  if (parsed.type === 'ssh-dss') return 'DSA keys are not supported.';
  const pem = spki ?? createPublicKey(parsed.getPublicPEM()).export({ type: 'spki', format: 'pem' }).toString();
  if (parsed.type === 'ssh-rsa') {
    const bits = createPublicKey(pem).asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < 2048) return 'RSA keys must be at least 2048 bits in length.';
  }
  const fingerprint = createHash('sha256').update(parsed.getPublicSSH()).digest('base64').replace(/=+$/u, '');
  return { fingerprint, pem: pem.trim() };
}
