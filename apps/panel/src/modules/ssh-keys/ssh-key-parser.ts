import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import ssh2, { type ParsedKey } from 'ssh2';

const { utils } = ssh2;

export interface ParsedSshKey {
  fingerprint: string;
  /** PKCS#8 / SPKI PEM (`-----BEGIN PUBLIC KEY-----`) */
  pem: string;
}

const INVALID = 'The public key provided is not valid.';
const DSA = 'DSA keys are not supported.';
/** Only public PEM blocks: node:crypto would derive a public key from a private one too. */
const PUBLIC_PEM = /^-----BEGIN (RSA )?PUBLIC KEY-----\r?\n/u;
const CURVES: Record<string, string> = { 'P-256': 'nistp256', 'P-384': 'nistp384', 'P-521': 'nistp521' };

/** Parses an OpenSSH or PEM public key; returns the reason it cannot be used as a string. */
export function parseSshPublicKey(input: string): ParsedSshKey | string {
  const text = input.trim();
  let parsed = parseOne(text);
  if (parsed instanceof Error) {
    // ssh2 reads the OpenSSH forms; a PEM public key (SPKI or PKCS#1) is converted to one first.
    const line = pemToOpenSsh(text);
    if (line === null || line === DSA) return line ?? INVALID;
    parsed = parseOne(line);
    if (parsed instanceof Error) return INVALID;
  }
  return finish(parsed);
}

function parseOne(text: string): ParsedKey | Error {
  // An OpenSSH private key file may hold several keys; ssh2 then answers with an array.
  const parsed: unknown = utils.parseKey(text);
  if (Array.isArray(parsed)) return (parsed[0] as ParsedKey | undefined) ?? new Error('no key');
  return parsed as ParsedKey | Error;
}

function finish(parsed: ParsedKey): ParsedSshKey | string {
  if (parsed.isPrivateKey()) return INVALID;
  if (parsed.type === 'ssh-dss') return DSA;
  const pem = createPublicKey(parsed.getPublicPEM()).export({ type: 'spki', format: 'pem' }).toString();
  if (parsed.type === 'ssh-rsa') {
    const bits = createPublicKey(pem).asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < 2048) return 'RSA keys must be at least 2048 bits in length.';
  }
  const fingerprint = createHash('sha256').update(parsed.getPublicSSH()).digest('base64').replace(/=+$/u, '');
  return { fingerprint, pem: pem.trim() };
}

/** `<type> <base64 wire blob>` for a PEM public key, `DSA` for a DSA key, null when unusable. */
function pemToOpenSsh(text: string): string | null {
  if (!PUBLIC_PEM.test(text)) return null;
  let key: KeyObject;
  try {
    key = createPublicKey(text);
  } catch {
    return null;
  }
  if (key.asymmetricKeyType === 'dsa') return DSA;
  const jwk = key.export({ format: 'jwk' });
  const b = (v: string | undefined) => Buffer.from(v ?? '', 'base64url');
  let parts: Buffer[];
  if (jwk.kty === 'RSA') parts = [Buffer.from('ssh-rsa'), mpint(b(jwk.e)), mpint(b(jwk.n))];
  else if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') parts = [Buffer.from('ssh-ed25519'), b(jwk.x)];
  else if (jwk.kty === 'EC' && jwk.crv && CURVES[jwk.crv]) {
    const curve = CURVES[jwk.crv]!;
    parts = [
      Buffer.from(`ecdsa-sha2-${curve}`),
      Buffer.from(curve),
      Buffer.concat([Buffer.of(4), b(jwk.x), b(jwk.y)]),
    ];
  } else return null;
  const blob = Buffer.concat(parts.map(sshString));
  return `${parts[0]!.toString()} ${blob.toString('base64')}`;
}

function sshString(value: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(value.length);
  return Buffer.concat([len, value]);
}

/** SSH mpint: big-endian, no leading zeros, a zero byte first when the top bit is set. */
function mpint(value: Buffer): Buffer {
  let i = 0;
  while (i < value.length - 1 && value[i] === 0) i++;
  const v = value.subarray(i);
  return (v[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.of(0), v]) : v;
}
