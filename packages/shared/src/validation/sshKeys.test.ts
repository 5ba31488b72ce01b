import { describe, expect, it } from 'vitest';
import { createSshKeySchema, publicKeyProblem, SSH_KEY_VALIDATION_MESSAGES as M } from './sshKeys.ts';

const ED25519 =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHkq7W0xZ4bO1v1s0VfVj0m2mXb0KQKX3aP8oPq1vY9Z alice@laptop';

describe('publicKeyProblem', () => {
  it('accepts OpenSSH lines with or without a comment, and PEM public keys', () => {
    expect(publicKeyProblem(ED25519)).toBeNull();
    expect(publicKeyProblem(`  ${ED25519.split(' ').slice(0, 2).join(' ')}\n`)).toBeNull();
    expect(
      publicKeyProblem('-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----'),
    ).toBeNull();
  });
  it('says what is wrong: empty, a private key, anything else', () => {
    expect(publicKeyProblem('  ')).toBe(M.keyRequired);
    expect(
      publicKeyProblem(
        '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
      ),
    ).toBe(M.keyPrivate);
    expect(publicKeyProblem('hello world')).toBe(M.keyShape);
  });
});

describe('createSshKeySchema', () => {
  it('requires a name of at most 191 characters', () => {
    const issues = (v: unknown) => createSshKeySchema.safeParse(v).error?.issues.map((i) => i.message) ?? [];
    expect(issues({ name: ' ', publicKey: ED25519 })).toEqual([M.nameRequired]);
    expect(issues({ name: 'x'.repeat(192), publicKey: ED25519 })).toEqual([M.nameMax]);
    expect(issues({ name: 'laptop', publicKey: ED25519 })).toEqual([]);
  });
});
