import { Writable, type Duplex } from 'node:stream';
import type Dockerode from 'dockerode';
import type { Logger } from 'pino';
import type { ResourceLimits } from '../cgroups.ts';
import type { ExitInfo, ProcessSample, RuntimeProcess } from '../driver.ts';
import { NetworkCounter, socketInodes, type SocketTable } from '../net-usage.ts';
import type { SharedProcessTable } from '../proc.ts';
import { attachStdio } from './attach.ts';
import { memoryWithOverhead, resourceConfig } from './limits.ts';
import { StatsFollower } from './stats.ts';

export interface ContainerProcessOptions {
  docker: Dockerode;
  container: Dockerode.Container;
  log: Logger;
  /** The installer goes once it has exited; a server container stays until its next start. */
  removeOnExit: boolean;
  /** Process limit a live limit update keeps (the node's, not the build's). */
  pidLimit: number;
  /**
   * Host network and a local engine: Docker reports no network counters, so TCP bytes are counted
   * from the host's socket table for the container's processes, as the process driver does.
   */
  hostNetwork: { sockets: SocketTable; procs: SharedProcessTable } | null;
}

/** Lines of the container's log replayed into the console history when a daemon adopts it. */
const ADOPTED_HISTORY_LINES = 150;

/** The payloads of Docker's multiplexed stream format (8-byte header: stream, 0, 0, 0, size). */
export function payloadsOf(multiplexed: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  while (at + 8 <= multiplexed.length) {
    const size = multiplexed.readUInt32BE(at + 4);
    out.push(multiplexed.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return out;
}

function statusOf(err: unknown): number | undefined {
  return (err as { statusCode?: number }).statusCode;
}

/** 404 (gone) and 409/304 (not running, already stopped) are the outcomes a kill or signal wants. */
function ignoreGone(err: unknown): void {
  const status = statusOf(err);
  if (status === 404 || status === 409 || status === 304) return;
  throw err;
}

/** A container seen as a RuntimeProcess: its attached stdio, its exit, its stats, its limits. */
export class ContainerProcess implements RuntimeProcess {
  pid = 0;
  startedAt = Date.now();
  readonly exited: Promise<ExitInfo>;
  private resolveExit!: (info: ExitInfo) => void;
  private listeners: Array<(chunk: Buffer) => void> = [];
  /** Output that arrived before anyone listened (between start and the caller's onOutput). */
  private early: Buffer[] = [];
  private stdio: Duplex | null = null;
  private readonly stats: StatsFollower;
  private readonly network = new NetworkCounter();
  private readonly waitAbort = new AbortController();
  private detached = false;
  /** The engine could not lower the memory limit under the current use: killed for memory. */
  private killedForMemory = false;

  private constructor(private readonly opts: ContainerProcessOptions) {
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
    this.stats = new StatsFollower(opts.container);
  }

  /** Attach to a created container, start it, and follow it until it exits. */
  static async start(opts: ContainerProcessOptions): Promise<ContainerProcess> {
    const proc = new ContainerProcess(opts);
    // Attach and wait before start, so no early output and no quick exit is missed.
    await proc.attach();
    const waited = opts.container.wait({ condition: 'next-exit', abortSignal: proc.waitAbort.signal });
    try {
      await opts.container.start();
    } catch (err) {
      proc.waitAbort.abort();
      proc.stdio?.destroy();
      waited.catch(() => {});
      throw err;
    }
    await proc.follow(waited);
    return proc;
  }

  /**
   * Re-attach to a container that is running (a new daemon adopting it). The console's recent past
   * comes from the container's log, so the history is not empty after a daemon restart.
   */
  static async adopt(opts: ContainerProcessOptions): Promise<ContainerProcess> {
    const proc = new ContainerProcess(opts);
    const logs = await opts.container
      .logs({ stdout: true, stderr: true, tail: ADOPTED_HISTORY_LINES })
      .catch(() => Buffer.alloc(0));
    proc.early.push(...payloadsOf(logs));
    await proc.attach();
    await proc.follow(opts.container.wait({ condition: 'not-running', abortSignal: proc.waitAbort.signal }));
    return proc;
  }

  private async attach(): Promise<void> {
    const stdio = await attachStdio(this.opts.docker, this.opts.container.id);
    this.stdio = stdio;
    const sink = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        if (this.listeners.length === 0) this.early.push(chunk);
        for (const l of this.listeners) l(chunk);
        done();
      },
    });
    // No TTY: stdout and stderr arrive multiplexed; a console shows them interleaved.
    this.opts.docker.modem.demuxStream(stdio, sink, sink);
    stdio.on('error', (err: Error) => {
      if (!this.detached) this.opts.log.debug({ err }, 'container stdio stream error');
    });
  }

  private async follow(waited: Promise<unknown>): Promise<void> {
    const info = await this.opts.container.inspect();
    this.pid = info.State.Pid;
    this.startedAt = Date.parse(info.State.StartedAt) || Date.now();
    this.stats.start();
    void waited.then(
      () => this.finish(),
      (err: unknown) => {
        if (this.detached) return; // the new daemon takes it from here
        this.opts.log.warn({ err }, 'lost the wait on a container; reading its state');
        void this.finish();
      },
    );
  }

  private async finish(): Promise<void> {
    if (this.detached) return;
    this.stats.stop();
    let exit: ExitInfo = { code: 1, signal: null, oomKilled: this.killedForMemory };
    try {
      const state = (await this.opts.container.inspect()).State;
      exit = { code: state.ExitCode, signal: null, oomKilled: state.OOMKilled || this.killedForMemory };
    } catch (err) {
      // Gone already (removed behind our back): Wings counts that as exit code 1, no OOM.
      this.opts.log.warn({ err }, 'cannot inspect the exited container');
    }
    // Let the last output through the demuxer before the exit is reported.
    await new Promise<void>((resolve) => {
      if (!this.stdio || this.stdio.readableEnded) return resolve();
      this.stdio.once('end', () => resolve());
      this.stdio.once('close', () => resolve());
      setTimeout(resolve, 1000).unref();
    });
    this.stdio?.destroy();
    if (this.opts.removeOnExit) {
      await this.opts.container.remove({ force: true }).catch(ignoreGone);
    }
    this.resolveExit(exit);
  }

  onOutput(listener: (chunk: Buffer) => void): void {
    this.listeners.push(listener);
    for (const chunk of this.early.splice(0)) listener(chunk);
  }

  write(data: string): boolean {
    if (!this.stdio || this.stdio.destroyed) return false;
    return this.stdio.write(data);
  }

  async signal(signal: NodeJS.Signals): Promise<void> {
    // PID 1 is Docker's init, which passes the signal on to the game.
    await this.opts.container.kill({ signal }).catch(ignoreGone);
  }

  async kill(): Promise<void> {
    await this.opts.container.kill({ signal: 'SIGKILL' }).catch(ignoreGone);
  }

  async setLimits(limits: ResourceLimits): Promise<void> {
    const update = resourceConfig({ ...limits, pids: this.opts.pidLimit });
    try {
      await this.opts.container.update(update);
    } catch (err) {
      // The kernel refuses a memory limit below what the container uses now (cgroup v1: EBUSY):
      // the process driver's promise holds here too, it is stopped as out of memory.
      const hard = memoryWithOverhead(limits.memoryBytes);
      if (hard > 0 && (await this.sample()).memoryBytes > hard) {
        this.killedForMemory = true;
        await this.kill();
        return;
      }
      throw err;
    }
  }

  async sample(): Promise<ProcessSample> {
    const sample = this.stats.sample;
    const host = this.opts.hostNetwork;
    if (!host || this.pid <= 0) return sample;
    const tree = (await host.procs.read()).tree(this.pid);
    const [table, inodes] = await Promise.all([host.sockets.read(), socketInodes(tree.map((p) => p.pid))]);
    const net = this.network.update(table, inodes);
    return { ...sample, rxBytes: net.rx, txBytes: net.tx };
  }

  detach(): void {
    this.detached = true;
    this.stats.stop();
    this.waitAbort.abort();
    this.stdio?.destroy();
  }
}
