import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, waitUntil, type Stack, type WsClient } from '../test-support/harness.ts';

// A build change synced while the server runs: the daemon applies the new limits to the running
// process (Wings updates the container), with cgroups (what the host offers: v1 or v2) and with the
// watchdog that stands in for them. Real processes: the fixture game allocates memory on `mem N`.

const MIB = 1024 * 1024;

async function ask(ws: WsClient, command: string, prefix: string): Promise<string> {
  const at = ws.messages.length;
  ws.send('send command', command);
  const m = await ws.waitFor(
    (x) => x.event === 'console output' && (x.args?.[0] ?? '').startsWith(prefix),
    15_000,
    at,
  );
  return m.args![0]!;
}

const consoleLines = (ws: WsClient, from: number): string[] =>
  ws.messages
    .slice(from)
    .filter((m) => m.event === 'console output')
    .map((m) => m.args?.[0] ?? '');

const statsOf = (m: { event: string; args?: string[] }) =>
  JSON.parse(m.args![0]!) as { memory_bytes: number; memory_limit_bytes: number; state: string };

/** Changes the build the stand-in panel serves, then tells the daemon to sync, as the panel does. */
async function syncBuild(stack: Stack, uuid: string, change: Record<string, unknown>): Promise<void> {
  const server = stack.remote.servers.get(uuid)!;
  const settings = server.settings as { build: Record<string, unknown> };
  settings.build = { ...settings.build, ...change };
  const res = await stack.api('POST', `/api/servers/${uuid}/sync`);
  expect(res.status).toBe(204);
}

async function killAndWait(ws: WsClient): Promise<void> {
  const at = ws.messages.length;
  ws.send('set state', 'kill');
  await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 15_000, at);
}

function limitTests(name: string, config: Record<string, unknown>) {
  describe(name, () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack({ config: { runtime: { stats_interval_ms: 250, ...config } } });
    });
    afterAll(async () => {
      await stack?.dispose();
    });

    it('kills a running server that uses more than a lowered memory limit, and says why', async () => {
      const uuid = await stack.createInstalled(undefined, {
        settings: { build: { memory_limit: 512, swap: 0, io_weight: 500, cpu_limit: 0, disk_space: 0 } },
      });
      const ws = await stack.startedWs(uuid);
      expect(await ask(ws, 'mem 120', 'allocated')).toBe('allocated 120 MiB');
      // The process really holds the memory before the limit drops below it.
      await ws.waitFor((m) => m.event === 'stats' && statsOf(m).memory_bytes > 120 * MIB, 15_000);

      const at = ws.messages.length;
      await syncBuild(stack, uuid, { memory_limit: 96 });
      await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 15_000, at);
      await ws.waitFor(
        (m) => m.event === 'console output' && (m.args?.[0] ?? '').includes('Out of memory: true'),
        15_000,
        at,
      );
      expect(
        consoleLines(ws, at).some((l) =>
          l.includes('The server was stopped because it needed more memory than its limit of 96 MiB.'),
        ),
      ).toBe(true);
      // Crash detection starts it again, now under the new limit from the start.
      const running = await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 15_000, at);
      const after = await ws.waitFor((m) => m.event === 'stats', 15_000, ws.messages.indexOf(running));
      expect(statsOf(after).memory_limit_bytes).toBe(96 * MIB);
      await killAndWait(ws);
    });

    it('lets a running server use memory up to a raised limit', async () => {
      const uuid = await stack.createInstalled(undefined, {
        settings: { build: { memory_limit: 100, swap: 0, io_weight: 500, cpu_limit: 0, disk_space: 0 } },
      });
      const ws = await stack.startedWs(uuid);
      const at = ws.messages.length;
      await syncBuild(stack, uuid, { memory_limit: 400 });
      // The daemon announces the new limit in a stats frame as soon as it is applied.
      await ws.waitFor(
        (m) => m.event === 'stats' && statsOf(m).memory_limit_bytes === 400 * MIB,
        15_000,
        at,
      );
      expect(await ask(ws, 'mem 150', 'allocated')).toBe('allocated 150 MiB');
      // Over the old limit and still alive across more than one watchdog period (1 s): eight
      // samples 250 ms apart, each showing the memory held.
      const from = ws.messages.length;
      const samples = () => ws.messages.slice(from).filter((x) => x.event === 'stats');
      await waitUntil(() => samples().length >= 8, 15_000, 'eight stats samples');
      expect(samples().every((m) => statsOf(m).state === 'running')).toBe(true);
      expect(samples().some((m) => statsOf(m).memory_bytes > 100 * MIB)).toBe(true);
      expect(consoleLines(ws, at).some((l) => l.includes('Out of memory'))).toBe(false);
      await killAndWait(ws);
    });
  });
}

limitTests('new limits on sync, enforced by cgroups', {});
limitTests('new limits on sync, enforced by the watchdog (no cgroups)', { cgroups: 'none' });
