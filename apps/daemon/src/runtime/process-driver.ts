import { spawn } from 'node:child_process';
import { chmod, chown, mkdir } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { Logger } from 'pino';
import {
  detectCgroups,
  type CgroupHandle,
  type CgroupMode,
  type CgroupSystem,
  type ResourceLimits,
} from './cgroups.ts';
import type {
  ExitInfo,
  LaunchSpec,
  ProcessSample,
  RuntimeDriver,
  RuntimeInfo,
  RuntimeProcess,
} from './driver.ts';
import { NetworkCounter, SocketTable, socketInodes } from './net-usage.ts';
import {
  NS_PER_TICK,
  PAGE_SIZE,
  processTree,
  safeKill,
  SharedProcessTable,
  type ProcessScan,
} from './proc.ts';
import { bwrapArgs, joinCgroupsArgv, type SandboxOptions } from './sandbox.ts';
import { HOST_ENV } from './host-env.ts';
import { LAUNCH_SCRIPT_FD, LAUNCHER_ARGV, launchScript } from './launch-script.ts';
import { ticker } from './ticker.ts';
import { STANDARD_PATH, findProgram } from './which.ts';

export interface ProcessDriverOptions {
  allowUnconfined: boolean;
  uid: number;
  gid: number;
  hidden: string[];
  hiddenFiles: string[];
  log: Logger;
  /** `runtime.cgroups` and `runtime.cgroup_root` of the configuration. */
  cgroupMode: CgroupMode;
  cgroupRoot: string;
  /** Test hook: pretend bwrap is missing. */
  forceNoBwrap?: boolean;
  /** Test hook: how the process table is read (a counting stand-in for `allStats`). */
  scanProcesses?: ProcessScan;
}

/** bwrap and setpriv: on the daemon's PATH, else in the usual system directories. */
function which(program: string): string | null {
  return findProgram(program, `${process.env.PATH ?? ''}:${STANDARD_PATH}`);
}

const WATCHDOG_MS = 1000;

/**
 * The `process` runtime: each server is a native process tree, confined by bubblewrap and limited by
 * cgroups (v2, else v1), or by a polling watchdog when the host offers neither.
 */
export class ProcessDriver implements RuntimeDriver {
  readonly info: RuntimeInfo;
  readonly refusal: string | null;
  private readonly sandbox: SandboxOptions | null;
  private readonly dropTo: { uid: number; gid: number; setpriv: string } | null;
  /** One read of the host's TCP sockets per stats tick, shared by every server. */
  private readonly sockets = new SocketTable();
  /** Without cgroups: one /proc scan per stats or watchdog tick, shared by every server. */
  private readonly procs: SharedProcessTable;

  private constructor(
    private readonly cgroups: CgroupSystem | null,
    private readonly opts: ProcessDriverOptions,
  ) {
    this.procs = new SharedProcessTable(undefined, opts.scanProcesses);
    const isRoot = process.getuid?.() === 0;
    const bwrap = opts.forceNoBwrap ? null : which('bwrap');
    const setpriv = which('setpriv');
    this.dropTo = isRoot && setpriv ? { uid: opts.uid, gid: opts.gid, setpriv } : null;
    this.sandbox = bwrap
      ? {
          bwrap,
          setpriv,
          uid: this.dropTo?.uid ?? null,
          gid: this.dropTo?.gid ?? null,
          hidden: opts.hidden,
          hiddenFiles: opts.hiddenFiles,
        }
      : null;
    this.info = {
      driver: 'process',
      confinement: this.sandbox ? 'bwrap' : 'none',
      limits: cgroups ? (cgroups.kind === 'v2' ? 'cgroup-v2' : 'cgroup-v1') : 'watchdog',
      enforcement: cgroups ? 'kernel' : 'best-effort',
    };
    if (!this.sandbox && !opts.allowUnconfined) {
      this.refusal =
        'bubblewrap (bwrap) is not installed, so servers cannot be confined; install it (apt-get install bubblewrap) ' +
        'or set runtime.allow_unconfined to true in the daemon configuration if every server on this node is trusted';
    } else if (isRoot && !setpriv) {
      this.refusal = 'setpriv (util-linux) is missing, so servers would run as root; install util-linux';
    } else {
      this.refusal = null;
    }
  }

  static async create(opts: ProcessDriverOptions): Promise<ProcessDriver> {
    const { log } = opts;
    const cgroups = await detectCgroups(opts.cgroupRoot, opts.cgroupMode);
    const driver = new ProcessDriver(cgroups.system, opts);
    if (driver.refusal) log.error({ runtime: driver.info }, `servers will not start: ${driver.refusal}`);
    else if (driver.info.confinement === 'none')
      log.warn('bubblewrap not found: servers run UNCONFINED because runtime.allow_unconfined is true');
    if (driver.info.limits === 'watchdog')
      log.warn(
        { problems: cgroups.problems },
        'no usable cgroups: memory and process limits are best-effort, enforced by a watchdog that polls ' +
          'each server once a second (a fast fork or memory bomb can outrun it)',
      );
    else if (cgroups.problems.length > 0) log.info({ problems: cgroups.problems }, 'cgroup kinds not used');
    log.info({ runtime: driver.info }, 'process runtime ready');
    return driver;
  }

  insidePaths(
    kind: LaunchSpec['kind'],
    serverDir: string,
    installDir?: string,
  ): { root: string; install: string } {
    if (!this.sandbox) return { root: serverDir, install: installDir ?? '' };
    return { root: kind === 'install' ? '/mnt/server' : '/home/container', install: '/mnt/install' };
  }

  async prepareDirectory(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    if (this.dropTo) {
      await chown(dir, this.dropTo.uid, this.dropTo.gid);
      await chmod(dir, 0o700);
    }
  }

  async launch(spec: LaunchSpec): Promise<RuntimeProcess> {
    if (this.refusal) throw new Error(this.refusal);
    const group = this.cgroups
      ? await this.cgroups.create(`${spec.id}${spec.kind === 'install' ? '-install' : ''}`, spec.limits)
      : null;
    let argv: string[];
    if (this.sandbox) {
      argv = bwrapArgs(spec, this.sandbox, this.insidePaths(spec.kind, spec.serverDir).root);
    } else if (this.dropTo) {
      const d = this.dropTo;
      argv = [
        d.setpriv,
        `--reuid=${d.uid}`,
        `--regid=${d.gid}`,
        '--clear-groups',
        '--inh-caps=-all',
        '--bounding-set=-all',
        '--no-new-privs',
        ...LAUNCHER_ARGV,
      ];
    } else {
      argv = LAUNCHER_ARGV;
    }
    argv = joinCgroupsArgv(group?.joinDirs ?? [], argv);
    this.opts.log.debug({ server: spec.id, kind: spec.kind, argv }, 'launching');
    const script = launchScript(spec.env, spec.argv);
    try {
      return await Launched.start(argv, script, spec, group, this.sandbox !== null, this.sockets, this.procs);
    } catch (err) {
      await group?.destroy();
      throw err;
    }
  }
}

class Launched implements RuntimeProcess {
  readonly exited: Promise<ExitInfo>;
  private readonly listeners: ((chunk: Buffer) => void)[] = [];
  /** Killed by the daemon for using more memory than its limit (watchdog, or a lowered limit). */
  private killedForMemory = false;
  private done = false;
  private readonly network = new NetworkCounter();
  /** The limits in force: the launch's, then each set by `setLimits`. */
  private limits: ResourceLimits;
  private stopWatchdog: (() => void) | null = null;

  private constructor(
    private readonly child: ReturnType<typeof spawn>,
    private readonly spec: LaunchSpec,
    private readonly group: CgroupHandle | null,
    private readonly confined: boolean,
    private readonly sockets: SocketTable,
    private readonly procs: SharedProcessTable,
  ) {
    const emit = (chunk: Buffer): void => {
      for (const l of this.listeners) l(chunk);
    };
    child.stdout?.on('data', emit);
    child.stderr?.on('data', emit);
    child.stdin?.on('error', () => undefined); // writes after exit must not crash the daemon
    this.limits = spec.limits;
    this.watchIfLimited();
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.done = true;
        this.stopWatchdog?.();
        void (async () => {
          const oom = this.killedForMemory || ((await group?.oomKilled()) ?? false);
          // Nothing may outlive the launch: kill strays, wait for the pipes, drop the cgroup.
          await group?.killAll();
          await waitClosed(child, 2000);
          await group?.destroy();
          resolve({ code: code ?? (signal ? 128 + signalNumber(signal) : 1), signal, oomKilled: oom });
        })();
      });
    });
  }

  static start(
    argv: string[],
    script: string,
    spec: LaunchSpec,
    group: CgroupHandle | null,
    confined: boolean,
    sockets: SocketTable,
    procs: SharedProcessTable,
  ): Promise<Launched> {
    return new Promise((resolve, reject) => {
      const child = spawn(argv[0]!, argv.slice(1), {
        // Host processes get the fixed environment; the server's arrives on fd 3 (launch-script.ts).
        env: { ...HOST_ENV },
        cwd: confined ? '/' : spec.serverDir,
        // fd 3 carries the launch script.
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
        // Its own session and process group: a terminal's Ctrl+C (SIGINT to the daemon's foreground
        // group) must not reach the game; the daemon alone decides how a server stops (issue 23).
        detached: true,
      });
      child.once('error', reject);
      child.once('spawn', () => {
        const channel = child.stdio[LAUNCH_SCRIPT_FD] as Writable;
        channel.on('error', () => undefined); // a launch that died early; its exit says why
        channel.end(script);
        resolve(new Launched(child, spec, group, confined, sockets, procs));
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  onOutput(listener: (chunk: Buffer) => void): void {
    this.listeners.push(listener);
  }

  write(data: string): boolean {
    if (this.done || !this.child.stdin?.writable) return false;
    this.child.stdin.write(data);
    return true;
  }

  async signal(signal: NodeJS.Signals): Promise<void> {
    if (this.done) return;
    // Inside bubblewrap the tree is bwrap → bwrap (pid 1 of the namespace) → payload; the signal goes
    // to the payload processes, as a terminal's Ctrl-C reaches the foreground job, not to bwrap.
    const tree = await processTree(this.pid);
    for (const p of tree) {
      if (this.confined && (p.pid === this.pid || p.comm === 'bwrap')) continue;
      safeKill(p.pid, signal);
    }
  }

  async kill(): Promise<void> {
    if (this.done) return;
    await this.group?.killAll();
    for (const p of await processTree(this.pid)) safeKill(p.pid, 'SIGKILL');
  }

  async setLimits(limits: ResourceLimits): Promise<void> {
    if (this.done) return;
    this.limits = limits;
    if (this.group) {
      if ((await this.group.setLimits(limits)) === 'over-memory') {
        this.killedForMemory = true;
        await this.kill();
      }
      return;
    }
    this.watchIfLimited();
    // Judge the tree against the new limits now rather than at the next tick.
    await this.watch();
  }

  /** The watchdog stands in for cgroups, and only while there is a limit to enforce. */
  private watchIfLimited(): void {
    const { memoryBytes, pids } = this.limits;
    const watched = !this.group && !this.done && (memoryBytes > 0 || pids > 0);
    if (watched && !this.stopWatchdog) this.stopWatchdog = ticker.every(WATCHDOG_MS, () => void this.watch());
    if (!watched && this.stopWatchdog) {
      this.stopWatchdog();
      this.stopWatchdog = null;
    }
  }

  async sample(): Promise<ProcessSample> {
    let usage: { cpuNs: number; memoryBytes: number };
    let pids: number[];
    if (this.group) {
      [usage, pids] = await Promise.all([this.group.usage(), this.group.pids()]);
    } else {
      const tree = (await this.procs.read()).tree(this.pid);
      usage = {
        cpuNs: tree.reduce((n, p) => n + p.cpuTicks * NS_PER_TICK, 0),
        memoryBytes: tree.reduce((n, p) => n + p.rssPages * PAGE_SIZE, 0),
      };
      pids = tree.map((p) => p.pid);
    }
    const [table, inodes] = await Promise.all([this.sockets.read(), socketInodes(pids)]);
    const net = this.network.update(table, inodes);
    return { ...usage, rxBytes: net.rx, txBytes: net.tx };
  }

  /** Without cgroups: poll the tree and kill it when it breaks its memory or process limit. */
  private async watch(): Promise<void> {
    if (this.done) return;
    const tree = (await this.procs.read()).tree(this.pid);
    const mem = tree.reduce((n, p) => n + p.rssPages * PAGE_SIZE, 0);
    const { memoryBytes, pids } = this.limits;
    if ((memoryBytes > 0 && mem > memoryBytes) || (pids > 0 && tree.length > pids)) {
      this.killedForMemory = memoryBytes > 0 && mem > memoryBytes;
      await this.kill();
    }
  }
}

function waitClosed(child: ReturnType<typeof spawn>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const streams = [child.stdout, child.stderr].filter((s) => s && !s.closed);
    if (streams.length === 0) return resolve();
    let left = streams.length;
    const t = setTimeout(resolve, ms);
    for (const s of streams)
      s!.once('close', () => {
        if (--left === 0) {
          clearTimeout(t);
          resolve();
        }
      });
  });
}

function signalNumber(signal: NodeJS.Signals): number {
  const map: Partial<Record<NodeJS.Signals, number>> = {
    SIGHUP: 1,
    SIGINT: 2,
    SIGQUIT: 3,
    SIGABRT: 6,
    SIGKILL: 9,
    SIGTERM: 15,
  };
  return map[signal] ?? 1;
}
