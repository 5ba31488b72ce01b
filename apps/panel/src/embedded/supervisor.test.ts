import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { DAEMON_EXIT_PORT_IN_USE } from '@talon/shared';
import { explainDaemonExit } from './local-daemon.ts';
import { Supervisor, type Clock, type ExitReport } from './supervisor.ts';

/** A clock whose timers fire only when the test advances it: no waiting, no races with the machine's speed. */
class ManualClock implements Clock {
  private t = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  now() {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number) {
    const id = this.next++;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  }
  clearTimeout(id: unknown) {
    this.timers.delete(id as number);
  }
  pending() {
    return [...this.timers.values()].map((x) => x.at - this.t);
  }
  advance(ms: number) {
    this.t += ms;
    for (const [id, timer] of [...this.timers]) {
      if (timer.at <= this.t) {
        this.timers.delete(id);
        timer.fn();
      }
    }
  }
}

/** A stand-in daemon: a real Node process that says when it is up and runs until it is signalled. */
const STAND_IN = `process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1 << 30); console.log('up');`;
const STUBBORN = `process.on('SIGTERM', () => {}); setInterval(() => {}, 1 << 30); console.log('up');`;

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.length = 0;
});

function supervise(
  script: string,
  opts: { maxDelayMs?: number; explainExit?: (code: number | null) => string | undefined } = {},
) {
  const clock = new ManualClock();
  const logged: { obj: object; msg: string }[] = [];
  const log = { info: () => {}, error: (obj: object, msg: string) => logged.push({ obj, msg }) };
  const supervisor = new Supervisor({
    name: 'the stand-in',
    spawn: () => {
      const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      started.push(child);
      return child;
    },
    log,
    clock,
    initialDelayMs: 1000,
    maxDelayMs: opts.maxDelayMs ?? 60_000,
    stableAfterMs: 60_000,
    killAfterMs: 5000,
    explainExit: opts.explainExit,
  });
  return { supervisor, clock, logged };
}

/** Starts (or restarts, by advancing the clock) and resolves with the child once it printed "up". */
async function nextChild(supervisor: Supervisor, trigger: () => void): Promise<ChildProcess> {
  const spawned = once(supervisor, 'spawn') as Promise<[ChildProcess]>;
  trigger();
  const [child] = await spawned;
  await once(child.stdout!, 'data');
  return child;
}

async function killHard(supervisor: Supervisor, child: ChildProcess): Promise<ExitReport> {
  const exit = once(supervisor, 'exit') as Promise<[ExitReport]>;
  process.kill(child.pid!, 'SIGKILL');
  return (await exit)[0];
}

describe('the process supervisor', () => {
  it('starts a child killed with SIGKILL again, logging why, with a doubling delay that is capped', async () => {
    const { supervisor, clock, logged } = supervise(STAND_IN, { maxDelayMs: 4000 });
    const first = await nextChild(supervisor, () => supervisor.start());

    const report = await killHard(supervisor, first);
    expect(report).toMatchObject({ pid: first.pid, code: null, signal: 'SIGKILL', restartInMs: 1000 });
    expect(logged.at(-1)?.obj).toMatchObject({ pid: first.pid, signal: 'SIGKILL', restartInMs: 1000 });
    expect(clock.pending()).toEqual([1000]);
    // Nothing is started before the delay is over.
    clock.advance(999);
    expect(supervisor.child).toBeNull();
    const second = await nextChild(supervisor, () => clock.advance(1));
    expect(second.pid).not.toBe(first.pid);

    const delays = [];
    let current = second;
    for (let i = 0; i < 3; i++) {
      delays.push((await killHard(supervisor, current)).restartInMs);
      const delay = clock.pending()[0]!;
      current = await nextChild(supervisor, () => clock.advance(delay));
    }
    expect(delays).toEqual([2000, 4000, 4000]);
    await supervisor.stop();
  });

  it('goes back to the shortest delay once the child has stayed up a while', async () => {
    const { supervisor, clock } = supervise(STAND_IN);
    const first = await nextChild(supervisor, () => supervisor.start());
    expect((await killHard(supervisor, first)).restartInMs).toBe(1000);
    const second = await nextChild(supervisor, () => clock.advance(1000));
    expect((await killHard(supervisor, second)).restartInMs).toBe(2000);
    const third = await nextChild(supervisor, () => clock.advance(2000));
    clock.advance(60_000);
    expect((await killHard(supervisor, third)).restartInMs).toBe(1000);
    await supervisor.stop();
  });

  it('stops the child with SIGTERM and never starts it again, even with a restart pending', async () => {
    const { supervisor, clock } = supervise(STAND_IN);
    const first = await nextChild(supervisor, () => supervisor.start());
    await killHard(supervisor, first);
    await supervisor.stop();
    expect(clock.pending()).toEqual([]);

    const other = supervise(STAND_IN);
    const child = await nextChild(other.supervisor, () => other.supervisor.start());
    const exit = once(other.supervisor, 'exit') as Promise<[ExitReport]>;
    await other.supervisor.stop();
    expect((await exit)[0]).toMatchObject({ pid: child.pid, signal: null, code: 0, restartInMs: null });
    expect(other.clock.pending()).toEqual([]);
  });

  it('kills a child that ignores SIGTERM once the stop bound is over', async () => {
    const { supervisor, clock, logged } = supervise(STUBBORN);
    const child = await nextChild(supervisor, () => supervisor.start());
    const exit = once(supervisor, 'exit') as Promise<[ExitReport]>;
    const stopped = supervisor.stop();
    // The bound is the clock's: the child is only killed when it runs out.
    expect(clock.pending()).toEqual([5000]);
    clock.advance(5000);
    await stopped;
    expect((await exit)[0]).toMatchObject({ pid: child.pid, signal: 'SIGKILL', restartInMs: null });
    expect(logged.map((l) => l.msg)).toEqual(['the stand-in did not stop in time; killing it']);
  });

  it('says in words why a child that explains its exit status could not run, and still backs off', async () => {
    const { supervisor, clock, logged } = supervise(
      `console.log('up'); process.exit(${DAEMON_EXIT_PORT_IN_USE})`,
      {
        explainExit: explainDaemonExit,
      },
    );
    const exit = once(supervisor, 'exit') as Promise<[ExitReport]>;
    supervisor.start();
    expect((await exit)[0]).toMatchObject({ code: DAEMON_EXIT_PORT_IN_USE, restartInMs: 1000 });
    expect(logged.at(-1)?.msg).toMatch(
      /^the stand-in could not run: its API port \(LOCAL_DAEMON_PORT\) is in use/u,
    );
    expect(clock.pending()).toEqual([1000]);
    await supervisor.stop();
  });
});
