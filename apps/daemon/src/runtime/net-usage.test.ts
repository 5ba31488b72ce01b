import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { NetworkCounter, parseSocketTable, SocketTable, socketInodes } from './net-usage.ts';

const SAMPLE = [
  'ESTAB 0      0      127.0.0.1:40444 127.0.0.1:epmd  uid:106 ino:4951 sk:1 cgroup:/ <->',
  '\t ts sack bbr wscale:10,10 rto:204 bytes_sent:21 bytes_acked:22 bytes_received:6 segs_out:4',
  'LISTEN 0      511    0.0.0.0:25565 0.0.0.0:*  ino:777 sk:2 cgroup:/ <->',
  '\t cubic rto:1000 mss:536',
  'ESTAB 0      0      127.0.0.1:epmd  127.0.0.1:40444 uid:106 ino:5855 sk:3 cgroup:/ <->',
  '\t ts sack bbr bytes_sent:6 bytes_acked:6 bytes_received:21 segs_out:2',
  'TIME-WAIT 0 0 127.0.0.1:1 127.0.0.1:2 ino:0 sk:4',
  '\t bytes_acked:99 bytes_received:99',
  '',
].join('\n');

describe('parseSocketTable', () => {
  it('reads received and acknowledged bytes per socket inode', () => {
    const table = parseSocketTable(SAMPLE);
    expect([...table.entries()]).toEqual([
      [4951, { rx: 6, tx: 22 }],
      [777, { rx: 0, tx: 0 }],
      [5855, { rx: 21, tx: 6 }],
    ]);
  });
});

describe('NetworkCounter', () => {
  it('adds what each socket moved since it was last seen, and keeps closed sockets in the total', () => {
    const counter = new NetworkCounter();
    const t = (entries: [number, number, number][]) => new Map(entries.map(([i, rx, tx]) => [i, { rx, tx }]));
    expect(counter.update(t([[1, 100, 10]]), new Set([1, 2]))).toEqual({ rx: 100, tx: 10 });
    expect(
      counter.update(
        t([
          [1, 150, 30],
          [2, 5, 5],
        ]),
        new Set([1, 2]),
      ),
    ).toEqual({ rx: 155, tx: 35 });
    // Socket 1 closed; socket 3 belongs to another server and is not counted.
    expect(
      counter.update(
        t([
          [2, 6, 5],
          [3, 1000, 1000],
        ]),
        new Set([2]),
      ),
    ).toEqual({ rx: 156, tx: 35 });
  });
});

describe('a real process talking TCP', () => {
  it('counts the bytes its sockets sent and received', async () => {
    const received: Buffer[] = [];
    let peer: Socket | null = null;
    const server = createServer((s) => {
      peer = s;
      s.on('data', (d: Buffer) => received.push(d));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as { port: number }).port;
    // The child sends 200 000 bytes, then waits (its socket stays open) until it is killed.
    const child = spawn(process.execPath, [
      '-e',
      `const s = require('net').connect(${port}, '127.0.0.1', () => s.write(Buffer.alloc(200000, 120)));` +
        `s.on('data', () => {}); setInterval(() => {}, 1000);`,
    ]);
    try {
      for (let i = 0; i < 100 && received.reduce((n, b) => n + b.length, 0) < 200_000; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      peer!.write(Buffer.alloc(50_000, 121));
      // Read until the kernel has counted the 50 kB (totals only grow), instead of hoping 200 ms is
      // enough on a loaded machine.
      const counter = new NetworkCounter();
      let usage = { rx: 0, tx: 0 };
      for (let i = 0; i < 300 && usage.rx < 50_000; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 50));
        usage = counter.update(await new SocketTable(0).read(), await socketInodes([child.pid!]));
      }
      expect(usage.tx).toBeGreaterThanOrEqual(200_000);
      expect(usage.rx).toBeGreaterThanOrEqual(50_000);
      // The test process's own sockets are not the child's.
      expect(usage.tx).toBeLessThan(250_000);
    } finally {
      child.kill('SIGKILL');
      server.close();
      (peer as Socket | null)?.destroy();
    }
  });

  it('reads an empty table where ss is missing', async () => {
    const table = new SocketTable(0, '/nonexistent/ss');
    expect((await table.read()).size).toBe(0);
    expect((await table.read()).size).toBe(0);
  });
});
