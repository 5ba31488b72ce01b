import { randomUUID } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, startStack, waitUntil, type Stack } from '../test-support/harness.ts';

const exists = (p: string): Promise<boolean> =>
  access(p).then(
    () => true,
    () => false,
  );

// Real daemon, real install scripts (bubblewrap + setpriv as root, as CI runs them).
describe('installer: egg values never reach a host shell; the script runs confined', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  /** Create a server whose egg has this install section; resolves with its install log. */
  async function install(
    change: (install: ReturnType<typeof fixtureServer>['install']) => void,
  ): Promise<{ uuid: string; successful: boolean; log: string }> {
    const uuid = randomUUID();
    const server = fixtureServer(uuid);
    change(server.install);
    stack.remote.servers.set(uuid, server);
    const res = await stack.api('POST', '/api/servers', { uuid, start_on_completion: false });
    expect(res.status).toBe(202);
    await waitUntil(() => stack.remote.installReports.some((r) => r.uuid === uuid), 20_000, 'install report');
    const log = await readFile(
      path.join(stack.config.system.log_directory, 'install', `${uuid}.log`),
      'utf8',
    );
    return { uuid, successful: stack.remote.installReports.find((r) => r.uuid === uuid)!.successful, log };
  }

  it('refuses an entrypoint that is a shell command substitution, and runs nothing on the host', async () => {
    // The daemon's own environment names the target, so the payload needs no "/" (the old lookup
    // took the entrypoint's basename before handing it to `sh -c "command -v …"`).
    const marker = path.join(stack.root, `pwned-${randomUUID()}`);
    process.env.TALON_TEST_MARKER = marker;
    try {
      const result = await install((i) => {
        i.entrypoint = '$(touch${IFS}$TALON_TEST_MARKER)';
        i.script = 'echo the script must not run either';
      });
      expect(await exists(marker)).toBe(false);
      expect(result.successful).toBe(false);
      expect(result.log).toContain(
        'install entrypoint "$(touch${IFS}$TALON_TEST_MARKER)" is not an allowed interpreter (bash, ash or sh)',
      );
      expect(result.log).not.toContain('the script must not run either');
    } finally {
      delete process.env.TALON_TEST_MARKER;
    }
  });

  it('refuses an entrypoint naming another program', async () => {
    const result = await install((i) => {
      i.entrypoint = 'python3';
      i.script = 'print("no")';
    });
    expect(result.successful).toBe(false);
    expect(result.log).toContain('install entrypoint "python3" is not an allowed interpreter');
  });

  it('runs an allowed interpreter given by absolute path', async () => {
    const result = await install((i) => {
      i.entrypoint = '/bin/bash';
      i.script = 'echo "bash $BASH_VERSION"';
    });
    expect(result.successful).toBe(true);
    expect(result.log).toMatch(/^bash \d/m);
  });

  // CVE-2023-32080 replay: an install script is as untrusted as the game; it must not run privileged.
  it('runs the install script as the server uid, unable to mount, see the host root or write outside /mnt/server', async () => {
    const hostFile = path.join(stack.root, `install-escape-${randomUUID()}`);
    const result = await install((i) => {
      i.script = [
        'echo "uid=$(id -u) gid=$(id -g)"',
        'mkdir -p /mnt/server/m',
        'if mount -t tmpfs none /mnt/server/m 2>/dev/null; then echo "mount: ok"; else echo "mount: denied"; fi',
        'if head -c1 /proc/1/root/etc/shadow >/dev/null 2>&1; then echo "shadow: read"; else echo "shadow: denied"; fi',
        'if head -c1 /etc/shadow >/dev/null 2>&1; then echo "own shadow: read"; else echo "own shadow: denied"; fi',
        `if touch ${hostFile} 2>/dev/null; then echo "host write: ok"; else echo "host write: denied"; fi`,
        'if touch /mnt/server/inside 2>/dev/null; then echo "server write: ok"; else echo "server write: denied"; fi',
        'grep CapEff /proc/self/status',
      ].join('\n');
    });
    expect(result.log).toContain(`uid=${stack.config.runtime.uid} gid=${stack.config.runtime.gid}`);
    expect(result.log).toContain('mount: denied');
    expect(result.log).toContain('shadow: denied');
    expect(result.log).toContain('own shadow: denied');
    expect(result.log).toContain('host write: denied');
    expect(result.log).toContain('server write: ok');
    expect(result.log).toMatch(/^CapEff:\s+0+$/m);
    expect(await exists(hostFile)).toBe(false);
    expect(result.successful).toBe(true);
  });
});
