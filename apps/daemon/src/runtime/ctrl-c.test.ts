import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemonProcess, type DaemonProcess } from '../test-support/daemon-process.ts';
import { fixtureServer, waitUntil } from '../test-support/harness.ts';

// Issue 23 item 5, replayed: the daemon runs in a terminal, the operator presses Ctrl+C, and the
// terminal sends SIGINT to the whole foreground process group. bwrap used to be in that group, so
// the game died at once (and without its stop command) instead of being stopped by the daemon.

/** A game that writes down how it was asked to stop: its stop command, or a signal. */
const GAME = String.raw`
const fs = require('fs');
const note = (what) => fs.appendFileSync('received.txt', what + '\n');
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => { note(sig); process.exit(0); });
process.stdin.on('data', (d) => { if (String(d).trim() === 'stop') { note('stop'); process.exit(0); } });
console.log('Done (0.1s)!');
`;

/** Processes on the host started with this server's environment. */
async function processesOf(uuid: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/u.test(name)) continue;
    const env = await readFile(`/proc/${name}/environ`, 'utf8').catch(() => '');
    if (env.split('\0').includes(`P_SERVER_UUID=${uuid}`)) found.push(Number(name));
  }
  return found;
}

const INSTALL = `#!/bin/sh
cat > /mnt/server/game.js <<'GAME'
${GAME}
GAME
`;

describe('Ctrl+C in the terminal that runs the daemon', () => {
  let daemon: DaemonProcess | undefined;
  afterEach(async () => {
    await daemon?.dispose();
    daemon = undefined;
  }, 120_000);

  it("reaches only the daemon, which stops the game with the egg's stop command", async () => {
    daemon = await startDaemonProcess({ system: { shutdown_timeout: 30 } }, { ownProcessGroup: true });
    const uuid = randomUUID();
    daemon.remote.servers.set(uuid, fixtureServer(uuid, { script: INSTALL }));
    expect((await daemon.api('POST', '/api/servers', { uuid, start_on_completion: true })).status).toBe(202);
    await waitUntil(
      async () => (await daemon!.api('GET', `/api/servers/${uuid}`)).body.state === 'running',
      30_000,
      'server running',
    );

    // What the terminal does: SIGINT to every process of the foreground group.
    process.kill(-daemon.child.pid!, 'SIGINT');
    expect(await daemon.exited).toEqual({ code: 0, signal: null });
    const received = await readFile(path.join(daemon.root, 'volumes', uuid, 'received.txt'), 'utf8');
    expect(received).toBe('stop\n');
    // Its own session did not let it outlive the daemon.
    expect(await processesOf(uuid)).toEqual([]);
    expect(daemon.logs().find((l) => l.msg === 'stopping servers before exit')).toMatchObject({
      signal: 'SIGINT',
      servers: 1,
    });
  }, 120_000);
});
