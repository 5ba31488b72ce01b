import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DAEMON_EXIT_PORT_IN_USE } from '@talon/shared';
import {
  runDaemonUntilExit,
  startDaemonProcess,
  type DaemonProcess,
} from '../test-support/daemon-process.ts';
import { fixtureServer, TOKEN, TOKEN_ID, waitUntil, writeDaemonFiles } from '../test-support/harness.ts';
import { RemoteStandIn } from '../test-support/remote-stand-in.ts';

// Issue 23 item 5: the panel's local daemon outlived a killed panel, holding its ports, and the
// next panel's daemon crash-looped on EADDRINUSE, resetting the servers with the panel each time.

describe('the local daemon of a panel', () => {
  let daemon: DaemonProcess | undefined;
  afterEach(async () => {
    await daemon?.dispose();
    daemon = undefined;
  }, 120_000);

  it("stops its servers with their stop command and exits when its panel's pipe closes", async () => {
    daemon = await startDaemonProcess({ system: { shutdown_timeout: 30 } }, { exitWithStdin: true });
    const uuid = randomUUID();
    daemon.remote.servers.set(
      uuid,
      fixtureServer(uuid, { process: { stop: { type: 'command', value: 'save-stop' } } }),
    );
    expect((await daemon.api('POST', '/api/servers', { uuid, start_on_completion: true })).status).toBe(202);
    await waitUntil(
      async () => (await daemon!.api('GET', `/api/servers/${uuid}`)).body.state === 'running',
      30_000,
      'server running',
    );
    // What the kernel does when the panel dies, however it dies: its end of the pipe closes.
    daemon.child.stdin!.end();
    expect(await daemon.exited).toEqual({ code: 0, signal: null });
    expect(await readFile(path.join(daemon.root, 'volumes', uuid, 'saved.txt'), 'utf8')).toBe('world saved');
    expect(daemon.logs().find((l) => l.msg === 'stopping servers before exit')).toMatchObject({
      signal: 'panel gone',
      servers: 1,
    });
  }, 120_000);

  it('exits with its own status, saying why, when its API port is taken, without resetting servers', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as AddressInfo).port;
    const remote = new RemoteStandIn(TOKEN_ID, TOKEN);
    const { root, configFile } = await writeDaemonFiles(await remote.start(), {
      api: { host: '127.0.0.1', port },
    });
    try {
      const { code, output } = await runDaemonUntilExit(configFile);
      expect(code, output).toBe(DAEMON_EXIT_PORT_IN_USE);
      expect(output).toContain(`the API port ${port} is already in use`);
      expect(remote.resets).toBe(0);
    } finally {
      holder.close();
      await remote.close();
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
