import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface HostKey {
  /** OpenSSH private key text, the format ssh2 reads */
  openssh: string;
  /** `ssh-ed25519 <base64>`, for the log and for clients' known_hosts */
  publicLine: string;
  /** `SHA256:<base64>` as `ssh-keygen -l` prints it */
  fingerprint: string;
}

/**
 * The node's SSH host key: ed25519, generated on first start and kept as PKCS#8 PEM (mode 0600) in
 * `<dir>/id_ed25519`, so clients see the same key after every restart.
 */
export function loadHostKey(dir: string): HostKey {
  const file = path.join(dir, 'id_ed25519');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  const key = createPrivateKey(readFileSync(file));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an ed25519 key`);
  return toOpenSsh(key);
}

function sshString(data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data) : data;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  return Buffer.concat([len, body]);
}

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/** The unencrypted `openssh-key-v1` container of an ed25519 key (ssh2 cannot read PKCS#8). */
function toOpenSsh(key: KeyObject): HostKey {
  const jwk = key.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d ?? '', 'base64url');
  const pub = Buffer.from(jwk.x ?? '', 'base64url');
  const pubBlob = Buffer.concat([sshString('ssh-ed25519'), sshString(pub)]);
  const check = randomBytes(4).readUInt32BE();
  let priv = Buffer.concat([
    uint32(check),
    uint32(check),
    sshString('ssh-ed25519'),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])),
    sshString('talon-daemon'),
  ]);
  const pad: number[] = [];
  for (let i = 1; (priv.length + pad.length) % 8 !== 0; i++) pad.push(i);
  priv = Buffer.concat([priv, Buffer.from(pad)]);
  const blob = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    uint32(1),
    sshString(pubBlob),
    sshString(priv),
  ]);
  const b64 = blob.toString('base64').replace(/(.{70})/g, '$1\n');
  return {
    openssh: `-----BEGIN OPENSSH PRIVATE KEY-----\n${b64.trimEnd()}\n-----END OPENSSH PRIVATE KEY-----\n`,
    publicLine: `ssh-ed25519 ${pubBlob.toString('base64')}`,
    fingerprint: `SHA256:${createHash('sha256').update(pubBlob).digest('base64').replace(/=+$/, '')}`,
  };
}
