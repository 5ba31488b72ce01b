import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

let panel: TestPanel;
let dir: string;
interface KeyFiles {
  pub: string;
  priv: string;
  /** the fingerprint ssh-keygen prints, without `SHA256:` */
  fingerprint: string;
  file: string;
}
const keys: Record<string, KeyFiles> = {};

/** A real key pair made by ssh-keygen. */
function keygen(name: string, args: string[]): KeyFiles {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', [...args, '-N', '', '-q', '-C', `${name}@test`, '-f', file]);
  const printed = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`]).toString();
  return {
    file,
    pub: readFileSync(`${file}.pub`, 'utf8'),
    priv: readFileSync(file, 'utf8'),
    fingerprint: /SHA256:([A-Za-z0-9+/]+)/u.exec(printed)![1]!,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'talon-ssh-'));
  keys.ed25519 = keygen('ed25519', ['-t', 'ed25519']);
  keys.rsa = keygen('rsa', ['-t', 'rsa', '-b', '2048']);
  keys.rsa1024 = keygen('rsa1024', ['-t', 'rsa', '-b', '1024']);
  keys.dsa = keygen('dsa', ['-t', 'dsa']);
  panel = await startTestPanel();
});
afterAll(async () => {
  await panel.close();
  rmSync(dir, { recursive: true, force: true });
});

const add = (client: TestClient, name: string, publicKey: unknown) =>
  client.post('/api/client/account/ssh-keys', { name, public_key: publicKey });

function keyError(detail: string) {
  return [
    {
      code: 'ValidationException',
      status: '422',
      detail,
      meta: { source_field: 'public_key', rule: '' },
    },
  ];
}

describe('POST /api/client/account/ssh-keys', () => {
  it('adds ed25519 and RSA-2048 OpenSSH keys with the SHA-256 fingerprint and a PEM public key', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    for (const kind of ['ed25519', 'rsa'] as const) {
      const res = await add(client, `my ${kind}`, keys[kind]!.pub);
      expect(res.status, kind).toBe(200);
      expect(res.body.object).toBe('ssh_key');
      expect(Object.keys(res.body.attributes)).toEqual(['name', 'fingerprint', 'public_key', 'created_at']);
      const { name, fingerprint, public_key: pem, created_at } = res.body.attributes;
      expect(name).toBe(`my ${kind}`);
      expect(fingerprint).toHaveLength(43);
      expect(fingerprint).toMatch(/^[A-Za-z0-9+/]{43}$/u);
      expect(fingerprint).toBe(keys[kind]!.fingerprint);
      expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----$/u);
      expect(created_at).toMatch(/\+00:00$/u);
    }
    const list = await client.get('/api/client/account/ssh-keys');
    expect(list.body.object).toBe('list');
    expect(
      list.body.data.map((k: { attributes: { fingerprint: string } }) => k.attributes.fingerprint),
    ).toEqual([keys.ed25519!.fingerprint, keys.rsa!.fingerprint]);
    const rows = await panel.ctx.repositories.sshKeys.listForUser(user.id);
    expect(rows.every((r) => r.public_key.startsWith('-----BEGIN PUBLIC KEY-----'))).toBe(true);
  });

  it('accepts the same keys as PEM public keys (PKCS#8, PKCS#1), not PEM private keys', async () => {
    const client = await panel.signedIn(await panel.createUser());
    const spki = execFileSync('ssh-keygen', ['-e', '-m', 'PKCS8', '-f', `${keys.rsa!.file}.pub`]).toString();
    const res = await add(client, 'pem', spki);
    expect(res.status).toBe(200);
    expect(res.body.attributes.fingerprint).toBe(keys.rsa!.fingerprint);
    const dsaPem = execFileSync('ssh-keygen', [
      '-e',
      '-m',
      'PKCS8',
      '-f',
      `${keys.dsa!.file}.pub`,
    ]).toString();
    expect((await add(client, 'dsa pem', dsaPem)).body.errors).toEqual(
      keyError('DSA keys are not supported.'),
    );
    const pkcs1 = execFileSync('ssh-keygen', [
      '-e',
      '-m',
      'PEM',
      '-f',
      `${keys.rsa1024!.file}.pub`,
    ]).toString();
    expect(pkcs1).toMatch(/BEGIN RSA PUBLIC KEY/u);
    expect((await add(client, 'pkcs1', pkcs1)).body.errors).toEqual(
      keyError('RSA keys must be at least 2048 bits in length.'),
    );
    const { privateKey } = generateKeyPairSync('ed25519');
    const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect((await add(client, 'private', pkcs8)).body.errors).toEqual(
      keyError('The public key provided is not valid.'),
    );
  });

  it('refuses duplicates, short RSA, DSA, private keys and garbage (422, rule "")', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    expect((await add(client, 'first', keys.ed25519!.pub)).status).toBe(200);
    const dup = await add(client, 'again', keys.ed25519!.pub);
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual(keyError('The public key provided already exists on your account.'));
    expect((await add(client, 'rsa1024', keys.rsa1024!.pub)).body.errors).toEqual(
      keyError('RSA keys must be at least 2048 bits in length.'),
    );
    expect((await add(client, 'dsa', keys.dsa!.pub)).body.errors).toEqual(
      keyError('DSA keys are not supported.'),
    );
    for (const bad of [keys.ed25519!.priv, keys.rsa!.priv, 'ssh-ed25519 AAAAnot-base64', 'hello world']) {
      const res = await add(client, 'bad', bad);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual(keyError('The public key provided is not valid.'));
    }
    // Another account may hold the same key.
    expect(
      (await add(await panel.signedIn(await panel.createUser()), 'same', keys.ed25519!.pub)).status,
    ).toBe(200);
    expect(await panel.ctx.repositories.sshKeys.listForUser(user.id)).toHaveLength(1);
  });

  it('validates name and public_key (422), needs XSRF on a session (419), and a user (401)', async () => {
    const client = await panel.signedIn(await panel.createUser());
    const res = await client.post('/api/client/account/ssh-keys', { name: '', public_key: 42 });
    expect(res.body.errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The name field is required.',
        meta: { source_field: 'name', rule: 'required' },
      },
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The public key must be a string.',
        meta: { source_field: 'public_key', rule: 'string' },
      },
    ]);
    client.sendXsrf = false;
    expect((await add(client, 'x', keys.rsa!.pub)).status).toBe(419);
    expect((await add(new TestClient(panel.url), 'x', keys.rsa!.pub)).status).toBe(401);
  });
});

describe('POST /api/client/account/ssh-keys/remove', () => {
  it('removes the caller’s key (204), answers 204 for anything else and leaves other accounts alone', async () => {
    const user = await panel.createUser();
    const other = await panel.createUser();
    const client = await panel.signedIn(user);
    const otherClient = await panel.signedIn(other);
    await add(client, 'mine', keys.rsa!.pub);
    await add(otherClient, 'theirs', keys.ed25519!.pub);

    const unknown = await client.post('/api/client/account/ssh-keys/remove', {
      fingerprint: 'nothing-like-this',
    });
    expect(unknown.status).toBe(204);
    const foreign = await client.post('/api/client/account/ssh-keys/remove', {
      fingerprint: keys.ed25519!.fingerprint,
    });
    expect(foreign.status).toBe(204);
    expect((await otherClient.get('/api/client/account/ssh-keys')).body.data).toHaveLength(1);

    const res = await client.post('/api/client/account/ssh-keys/remove', {
      fingerprint: keys.rsa!.fingerprint,
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await client.get('/api/client/account/ssh-keys')).body.data).toEqual([]);
    // Removed keys do not count as duplicates.
    expect((await add(client, 'back', keys.rsa!.pub)).status).toBe(200);
    const events = (await client.get('/api/client/account/activity')).body.data.map(
      (e: { attributes: { event: string } }) => e.attributes.event,
    );
    expect(events.filter((e: string) => e === 'user:ssh-key.delete')).toHaveLength(1);
    expect(events.filter((e: string) => e === 'user:ssh-key.create')).toHaveLength(2);

    const missing = await client.post('/api/client/account/ssh-keys/remove', {});
    expect(firstError(missing)).toMatchObject({ meta: { source_field: 'fingerprint', rule: 'required' } });
  });
});
