import { randomUUID } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../test-support/harness.ts';

// A server's network figures in its stats come from its own TCP sockets: a player connects and
// sends data, the server echoes it, and rx/tx grow by at least that much.
const ECHO_JS = String.raw`
const net = require('net');
net.createServer((s) => s.pipe(s)).listen(Number(process.env.SERVER_PORT), '127.0.0.1', () =>
  process.stdout.write('Done (0.1s)! For help, type "help"\n'),
);
process.on('SIGINT', () => process.exit(0));
`;
const INSTALL = `#!/bin/bash
set -e
cd /mnt/server
cat > echo.js <<'ECHO'
${ECHO_JS}
ECHO
`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.dispose();
});

describe('network statistics', () => {
  it("count the bytes of the server's own TCP connections", async () => {
    const port = await freePort();
    const uuid = await stack.createInstalled(randomUUID(), {
      script: INSTALL,
      settings: {
        invocation: 'node echo.js',
        allocations: { force_outgoing_ip: false, default: { ip: '127.0.0.1', port }, mappings: {} },
      },
    });
    const ws = await stack.startedWs(uuid);
    const player = connect(port, '127.0.0.1');
    let echoed = 0;
    player.on('data', (d: Buffer) => (echoed += d.length));
    player.write(Buffer.alloc(300_000, 97));
    try {
      const network = (m: { event: string; args?: string[] }) =>
        m.event === 'stats'
          ? (JSON.parse(m.args![0]!) as { network: { rx_bytes: number; tx_bytes: number } }).network
          : null;
      const stats = await ws.waitFor((m) => {
        const n = network(m);
        return n !== null && n.rx_bytes >= 300_000 && n.tx_bytes >= 300_000;
      }, 20_000);
      expect(echoed).toBe(300_000);
      // Only this connection: nothing else the machine does is counted for the server.
      expect(network(stats)!.rx_bytes).toBeLessThan(400_000);
    } finally {
      player.destroy();
    }
  });
});
