import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { Logger } from 'pino';
import type { PowerAction, RemoteServer, ServerState, ServerStats } from '@talon/shared';
import type { DaemonConfig } from '../config/config.ts';
import { rewriteConfigFiles } from '../config-files/rewrite.ts';
import { DiskUsage } from '../fs/disk-usage.ts';
import { Jail } from '../fs/jail.ts';
import { assertUuid } from '../fs/paths.ts';
import type { RemoteClient } from '../panel/client.ts';
import type { ResourceLimits } from '../runtime/cgroups.ts';
import type { ExitInfo, RuntimeDriver, RuntimeProcess } from '../runtime/driver.ts';
import { ticker } from '../runtime/ticker.ts';
import {
  ConsoleThrottle,
  LineSplitter,
  RingBuffer,
  THROTTLE_NOTICE,
  daemonLine,
  doneMatcher,
} from './console.ts';
import { decideCrash } from './crash.ts';
import { buildEnvironment, substituteStartup } from './environment.ts';
import { LOCK_BUSY, ServerError } from './errors.ts';
import { PowerLock } from './power-lock.ts';

export interface ServerDeps {
  config: DaemonConfig;
  remote: RemoteClient;
  driver: RuntimeDriver;
  log: Logger;
  onStateChange: (server: Server) => void;
}

/** Events on `server.bus`, consumed by websocket connections. Payloads are the wire args. */
export interface ServerBusEvents {
  status: [ServerState];
  stats: [ServerStats];
  console: [string];
  'install output': [string];
  'install started': [];
  'install completed': [];
  'daemon message': [string];
  /** JSON of a BackupCompletedEvent */
  'backup completed': [string];
  'backup restore completed': [];
  /** JSON of a BackupProgressEvent */
  'backup progress': [string];
  deleted: [];
}

const STOP_TIMEOUT_MS = 10 * 60 * 1000;
const SIGNALS: Record<string, NodeJS.Signals> = {
  C: 'SIGINT',
  INT: 'SIGINT',
  SIGINT: 'SIGINT',
  TERM: 'SIGTERM',
  SIGTERM: 'SIGTERM',
  ABRT: 'SIGABRT',
  SIGABRT: 'SIGABRT',
  QUIT: 'SIGQUIT',
  SIGQUIT: 'SIGQUIT',
  HUP: 'SIGHUP',
  SIGHUP: 'SIGHUP',
  KILL: 'SIGKILL',
  SIGKILL: 'SIGKILL',
};

/** One game server: its configuration, state machine, process, console and live statistics. */
export class Server {
  readonly bus = new EventEmitter<ServerBusEvents>();
  readonly history = new RingBuffer(1000);
  readonly disk: DiskUsage;
  readonly dir: string;
  state: ServerState = 'offline';
  installing = false;
  /** A backup is being restored into the directory: power actions are refused. */
  restoring = false;
  deleted = false;
  private readonly lock = new PowerLock();
  private readonly throttle: ConsoleThrottle;
  private proc: RuntimeProcess | null = null;
  private exitWaiters: (() => void)[] = [];
  private lastCrashAt: number | null = null;
  private startedAt = 0;
  private stopStats: (() => void) | null = null;
  private lastCpu: { ns: number; at: number } | null = null;
  private usage = { memory: 0, cpu: 0, rx: 0, tx: 0 };

  constructor(
    public config: RemoteServer,
    private readonly deps: ServerDeps,
  ) {
    this.dir = path.join(deps.config.system.data, assertUuid(config.settings.uuid));
    this.disk = new DiskUsage(this.dir, deps.config.system.disk_check_interval);
    this.throttle = new ConsoleThrottle(
      deps.config.throttles.lines,
      deps.config.throttles.line_reset_interval,
    );
    this.bus.setMaxListeners(0);
  }

  get uuid(): string {
    return this.config.settings.uuid;
  }

  get suspended(): boolean {
    return this.config.settings.suspended;
  }

  get running(): boolean {
    return this.proc !== null;
  }

  get memoryLimitBytes(): number {
    return this.config.settings.build.memory_limit * 1024 * 1024;
  }

  stats(): ServerStats {
    // Keys in alphabetical order, as Wings' payloads arrive.
    return {
      cpu_absolute: this.usage.cpu,
      disk_bytes: this.disk.cached,
      memory_bytes: this.usage.memory,
      memory_limit_bytes: this.memoryLimitBytes,
      network: { rx_bytes: this.usage.rx, tx_bytes: this.usage.tx },
      state: this.state,
      uptime: this.proc ? Date.now() - this.startedAt : 0,
    };
  }

  /** A daemon notice in the console (and its history). */
  notice(text: string): void {
    const line = daemonLine(this.deps.config.app_name, text);
    this.history.push(line);
    this.bus.emit('console', line);
  }

  setState(next: ServerState): void {
    if (next === this.state) return;
    this.state = next;
    if (next === 'starting') this.throttle.reset();
    this.bus.emit('status', next);
    if (next === 'offline') {
      this.usage = { memory: 0, cpu: 0, rx: 0, tx: 0 };
      this.bus.emit('stats', this.stats());
    }
    this.deps.onStateChange(this);
  }

  /** The limits a launch of this server gets from its build (memory and swap in MiB on the wire). */
  private launchLimits(): ResourceLimits {
    const build = this.config.settings.build;
    return {
      memoryBytes: this.memoryLimitBytes,
      swapBytes: build.swap < 0 ? -1 : build.swap * 1024 * 1024,
      pids: this.deps.config.runtime.pid_limit,
      cpuPercent: build.cpu_limit,
    };
  }

  /**
   * Re-download this server's configuration from the panel. A running process gets the new limits
   * at once (Wings updates the container's resources the same way): one now using more memory than
   * its new limit is killed, and its exit says why.
   */
  async sync(): Promise<void> {
    const before = this.launchLimits();
    this.config = await this.deps.remote.getServer(this.uuid);
    const proc = this.proc;
    if (this.suspended && proc) {
      void this.stopWithin(60_000).catch((err: Error) =>
        this.deps.log.warn({ err, server: this.uuid }, 'stop on suspend'),
      );
      return;
    }
    const after = this.launchLimits();
    if (proc && JSON.stringify(after) !== JSON.stringify(before)) {
      this.deps.log.info({ server: this.uuid, limits: after }, 'applying new limits to the running server');
      try {
        await proc.setLimits(after);
      } catch (err) {
        // The new configuration is kept either way; the next start applies it.
        this.deps.log.warn(
          { err, server: this.uuid },
          'could not apply the new limits to the running server',
        );
      }
      if (this.proc === proc) this.bus.emit('stats', this.stats());
    }
  }

  /**
   * Run a power action. `waitMs` bounds the wait for the power lock (0 = fail at once); kill does not
   * need the lock. Resolves when the action has completed.
   */
  async power(action: PowerAction, waitMs: number): Promise<void> {
    if (this.installing) throw new ServerError('server is currently installing', 409);
    if (this.restoring) throw new ServerError('server is currently being restored', 409);
    if (this.deleted) throw new ServerError('server is being deleted', 409);
    if (action === 'kill') return this.kill();
    if (!(await this.lock.acquire(waitMs))) throw new ServerError(LOCK_BUSY, 409);
    try {
      if (action === 'start') await this.start();
      else if (action === 'stop') await this.stopWithin(STOP_TIMEOUT_MS);
      else {
        await this.stopWithin(STOP_TIMEOUT_MS);
        await this.start();
      }
    } finally {
      this.lock.release();
    }
  }

  get powerLocked(): boolean {
    return this.lock.isHeld;
  }

  /** Hold the power lock for something else (reinstall). */
  async withLock<T>(waitMs: number, fn: () => Promise<T>): Promise<T> {
    if (!(await this.lock.acquire(waitMs))) throw new ServerError(LOCK_BUSY, 409);
    try {
      return await fn();
    } finally {
      this.lock.release();
    }
  }

  sendCommand(command: string): boolean {
    if (!this.proc || this.state === 'offline') return false;
    const stop = this.config.process_configuration.stop;
    if (stop.type === 'command' && command === stop.value) this.setState('stopping');
    return this.proc.write(`${command}\n`);
  }

  private async start(): Promise<void> {
    if (this.state !== 'offline' || this.proc) throw new ServerError('server is running', 409);
    const { config, driver } = this.deps;
    if (driver.refusal) throw new ServerError(driver.refusal, 500);
    await this.sync();
    if (this.suspended) throw new ServerError('server is currently in a suspended state', 400);
    const limitMb = this.config.settings.build.disk_space;
    if (limitMb > 0) {
      this.notice('Checking server disk space usage, this could take a few seconds...');
      if ((await this.disk.refresh()) > limitMb * 1024 * 1024) {
        throw new ServerError('server is out of available disk space', 400);
      }
    } else {
      this.disk.refreshIfStale();
    }
    await driver.prepareDirectory(this.dir);
    this.notice('Updating process configuration files...');
    await rewriteConfigFiles(this, {
      config,
      log: this.deps.log,
      owner: process.getuid?.() === 0 ? { uid: config.runtime.uid, gid: config.runtime.gid } : null,
      notice: (text) => this.notice(text),
    });
    this.notice('Ensuring file permissions are set correctly, this could take a few seconds...');
    await this.fixOwnership();

    this.history.clear();
    this.setState('starting');
    const home = driver.insidePaths('server', this.dir).root;
    const env = buildEnvironment(this.config, {
      timezone: config.system.timezone,
      home,
      onRefused: (name, why) => this.notice(`variable ${name} was not passed to the server: ${why}`),
    });
    const command = substituteStartup(this.config.settings.invocation, env, this.config.settings, (p) =>
      this.deps.log.warn({ server: this.uuid, placeholder: p }, 'unknown placeholder in the startup command'),
    );
    let proc: RuntimeProcess;
    try {
      proc = await driver.launch({
        id: this.uuid,
        kind: 'server',
        serverDir: this.dir,
        argv: ['/bin/sh', '-c', command],
        env,
        limits: this.launchLimits(),
        startup: command,
        image: this.config.settings.container?.image,
        allocations: this.config.settings.allocations?.mappings,
        build: {
          ioWeight: this.config.settings.build.io_weight,
          oomDisabled: this.config.settings.build.oom_disabled,
          cpuset: this.config.settings.build.threads,
        },
        onDaemonMessage: (line) => this.bus.emit('daemon message', line),
      });
    } catch (err) {
      // Through `stopping` so the failed start is not mistaken for a crash.
      this.setState('stopping');
      this.setState('offline');
      throw new ServerError(`failed to start server process: ${(err as Error).message}`, 500);
    }
    this.attach(proc);
  }

  /**
   * Take over a launch an earlier daemon left running (drivers that survive a restart): the server
   * is running again, with its console, stats and power actions, as if this daemon had started it.
   */
  adopt(proc: RuntimeProcess): void {
    if (this.proc) return;
    this.history.clear();
    this.attach(proc);
    this.setState('running');
  }

  private attach(proc: RuntimeProcess): void {
    this.proc = proc;
    this.startedAt = proc.startedAt ?? Date.now();
    this.lastCpu = null;
    const startup = this.config.process_configuration.startup;
    const isDone = doneMatcher(startup.done, startup.strip_ansi);
    const splitter = new LineSplitter((line) => {
      // The done check sees every line, even those the throttle drops.
      if (this.state === 'starting' && isDone(line)) this.setState('running');
      this.history.push(line);
      const verdict = this.throttle.accept();
      if (verdict === 'pass') this.bus.emit('console', line);
      else if (verdict === 'notice') this.notice(THROTTLE_NOTICE);
    });
    proc.onOutput((chunk) => splitter.push(chunk));
    this.stopStats = ticker.every(this.deps.config.runtime.stats_interval_ms, () => void this.sampleStats());
    void proc.exited.then((info) => {
      splitter.flush();
      this.onExit(info);
    });
  }

  private async sampleStats(): Promise<void> {
    const proc = this.proc;
    if (!proc) return;
    const s = await proc.sample();
    const now = performance.now();
    if (this.lastCpu && now > this.lastCpu.at) {
      // ns of CPU per ns of wall time, as a percentage of one core (200 = two busy cores).
      const pct = ((s.cpuNs - this.lastCpu.ns) / ((now - this.lastCpu.at) * 1e6)) * 100;
      this.usage.cpu = Math.max(0, Math.round(pct * 1000) / 1000);
    }
    this.lastCpu = { ns: s.cpuNs, at: now };
    this.usage.memory = s.memoryBytes;
    this.usage.rx = s.rxBytes;
    this.usage.tx = s.txBytes;
    this.disk.refreshIfStale();
    if (this.proc === proc) this.bus.emit('stats', this.stats());
  }

  private onExit(info: ExitInfo): void {
    this.proc = null;
    this.stopStats?.();
    this.stopStats = null;
    const wasStopping = this.state === 'stopping';
    this.setState('offline');
    for (const w of this.exitWaiters.splice(0)) w();
    this.deps.log.info({ server: this.uuid, exit: info }, 'server process exited');
    if (info.oomKilled && !this.deleted) {
      const limit = this.config.settings.build.memory_limit;
      this.notice(
        limit > 0
          ? `The server was stopped because it needed more memory than its limit of ${limit} MiB.`
          : 'The server was stopped because it ran out of memory.',
      );
    }
    if (!wasStopping && !this.deleted) void this.handleCrash(info);
  }

  private async handleCrash(info: ExitInfo): Promise<void> {
    const cd = this.deps.config.system.crash_detection;
    const decision = decideCrash(info, {
      enabled: this.config.settings.crash_detection_enabled ?? cd.enabled,
      lastCrashAt: this.lastCrashAt,
      now: Date.now(),
      cfg: cd,
    });
    if (decision.kind === 'ignore') return;
    for (const l of decision.lines) this.notice(l);
    if (decision.kind !== 'restart') return;
    this.lastCrashAt = Date.now();
    try {
      await this.power('start', 30_000);
    } catch (err) {
      this.deps.log.warn({ err, server: this.uuid }, 'restart after crash failed');
      this.notice('Server crash was detected but an error occurred while handling it.');
    }
  }

  private waitExit(ms: number): Promise<boolean> {
    if (!this.proc) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      this.exitWaiters.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  /** Ask the process to stop the egg's way; kill it if it is still there after `ms`. */
  /** Ask the server to stop by its egg's stop; true once it is offline, false after `ms` (never killed). */
  async stopGracefully(ms: number): Promise<boolean> {
    const proc = this.proc;
    if (!proc) return true;
    this.setState('stopping');
    await this.sendStop(proc);
    return this.waitExit(ms);
  }

  async stopWithin(ms: number): Promise<void> {
    const proc = this.proc;
    if (!proc) {
      if (this.state !== 'offline') {
        this.setState('stopping');
        this.setState('offline');
      }
      return;
    }
    this.setState('stopping');
    await this.sendStop(proc);
    if (!(await this.waitExit(ms))) await this.kill();
  }

  /** The egg's stop: a console command, a signal to the game's processes, or a kill. */
  private async sendStop(proc: RuntimeProcess): Promise<void> {
    const stop = this.config.process_configuration.stop;
    if (stop.type === 'command') {
      proc.write(`${stop.value}\n`);
    } else if (stop.type === 'signal') {
      // `^C` means SIGINT, delivered as a signal to the game's processes, not typed text.
      await proc.signal(SIGNALS[stop.value.toUpperCase()] ?? 'SIGKILL');
    } else if (stop.type === 'stop') {
      await proc.signal('SIGTERM');
    } else {
      await proc.kill();
    }
  }

  async kill(): Promise<void> {
    const proc = this.proc;
    if (!proc) {
      if (this.state !== 'offline') {
        this.setState('stopping');
        this.setState('offline');
      }
      return;
    }
    this.setState('stopping');
    await proc.kill();
    await this.waitExit(15_000);
  }

  /**
   * Everything in the server directory belongs to the server user. By descriptor, never through a
   * link: a directory swapped for a link to `/` mid-walk must not hand host files to that user
   * (1.0.0-beta.8).
   */
  private async fixOwnership(): Promise<void> {
    const { uid, gid } = this.deps.config.runtime;
    if (process.getuid?.() !== 0) return; // only root can, and then servers run as that user
    await new Jail(this.dir).chownAll({ uid, gid });
  }

  /** Stop accepting work, kill the process; the manager removes files. */
  async destroy(): Promise<void> {
    this.deleted = true;
    this.bus.emit('deleted');
    await this.kill();
  }

  /**
   * Daemon shutdown: stop the process the egg's way, as a stop from the panel would, so the game
   * saves its world; kill it if it is still running after `graceMs`. No crash restart follows, and
   * the manager records no state change, so the next boot starts it again. With a driver whose
   * launches survive the daemon (containers), nothing is stopped: the server is only let go of.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.deleted = true;
    const proc = this.proc;
    if (!proc) return;
    if (this.deps.driver.survivesRestart && proc.detach) {
      // Containers keep running without the daemon; the next one adopts them.
      this.stopStats?.();
      this.stopStats = null;
      this.proc = null;
      proc.detach();
      return;
    }
    this.setState('stopping');
    await this.sendStop(proc);
    if (!(await this.waitExit(graceMs))) {
      this.deps.log.warn(
        { server: this.uuid, timeoutSeconds: graceMs / 1000 },
        'server did not stop in time; killing it',
      );
      await proc.kill();
    }
    await proc.exited;
  }
}
