import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../test-support/harness.ts';

// A server floods its console (40 MB in 4 s, well under the line throttle) while one browser reads
// everything and another has stopped reading: the reader must get every line in order, the stalled
// one must not make the daemon queue without limit, and is told how many lines it missed.
const LINES = 20_000;
const FLOOD_JS = String.raw`
const payload = 'x'.repeat(2000);
process.stdout.write('Done (0.1s)! For help, type "help"\n');
process.stdin.on('data', (d) => {
  const text = String(d).trim();
  if (text !== 'go') return process.stdout.write('echo ' + text + '\n');
  let sent = 0;
  const timer = setInterval(() => {
    let out = '';
    for (let i = 0; i < 500 && sent < ${LINES}; i++) out += 'flood ' + sent++ + ' ' + payload + '\n';
    process.stdout.write(out);
    if (sent >= ${LINES}) {
      clearInterval(timer);
      process.stdout.write('flood done\n');
    }
  }, 100);
});
process.on('SIGINT', () => process.exit(0));
`;
const INSTALL = `#!/bin/bash
set -e
cd /mnt/server
cat > flood.js <<'FLOOD'
${FLOOD_JS}
FLOOD
`;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.dispose();
});

describe('console output to a browser that cannot keep up', () => {
  it('skips lines for the stalled socket only, then says how many', async () => {
    const uuid = await stack.createInstalled(randomUUID(), {
      script: INSTALL,
      settings: { invocation: 'node flood.js' },
    });
    const reader = await stack.startedWs(uuid);
    const stalled = await stack.ws(uuid);
    stalled.send('auth', await stack.token(uuid));
    await stalled.waitFor((m) => m.event === 'auth success');
    stalled.socket.pause();

    const floodLines = (messages: { event: string; args?: string[] }[]) =>
      messages.filter((m) => m.event === 'console output' && /^flood \d+ /u.test(m.args?.[0] ?? ''));
    reader.send('send command', 'go');
    await reader.waitFor((m) => m.args?.[0] === 'flood done', 60_000);

    // The reader got every line, in order.
    const read = floodLines(reader.messages).map((m) => Number(m.args![0]!.split(' ')[1]));
    expect(read).toHaveLength(LINES);
    expect(read.every((n, i) => n === i)).toBe(true);

    stalled.socket.resume();
    // Once it has caught up, the stalled socket hears how many lines it missed, then the newest
    // ones, without waiting for the server to print again.
    await stalled.waitFor((m) => m.args?.[0] === 'flood done', 30_000);
    const notice = stalled.messages.find((m) =>
      m.args?.[0]?.includes('console lines were skipped because this connection could not keep up'),
    );
    expect(notice).toBeDefined();
    const skipped = Number(/(\d+) console lines were skipped/u.exec(notice!.args![0]!)![1]);
    const received = floodLines(stalled.messages).map((m) => Number(m.args![0]!.split(' ')[1]));
    expect(skipped).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(LINES);
    // In order, ending with the burst's last line, and every line delivered or counted.
    expect(received.every((n, i) => i === 0 || n > received[i - 1]!)).toBe(true);
    expect(received.at(-1)).toBe(LINES - 1);
    expect(received.length + skipped).toBe(LINES);

    // Afterwards lines flow normally again.
    reader.send('send command', 'after');
    await stalled.waitFor((m) => m.args?.[0] === 'echo after', 10_000);
  }, 120_000);
});
