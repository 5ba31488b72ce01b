import type { ResourceLimits } from './cgroups.ts';

/** What to run, in terms the servers layer knows; the driver decides how it is confined. */
export interface LaunchSpec {
  /** Server uuid; names the cgroup and the hostname. */
  id: string;
  /** `server`: the game; `install`: the egg's install script. */
  kind: 'server' | 'install';
  /** Host directory of the server's files. */
  serverDir: string;
  /** Host directory holding the install script (install only), seen at /mnt/install. */
  installDir?: string;
  /** argv inside the sandbox. */
  argv: string[];
  env: Record<string, string>;
  limits: ResourceLimits;
  /**
   * The start command, placeholders expanded (server only). Container runtimes hand it to images
   * that bring their own entrypoint as `STARTUP`; `argv` runs it everywhere else.
   */
  startup?: string;
  /** The image to run (container runtimes; the process runtime runs the host's programs). */
  image?: string;
  /** Install only: the egg's install interpreter (`bash`, `ash`, `sh`), as named inside the image. */
  entrypoint?: string;
  /** Host address → ports of the server's allocations, published by container runtimes' bridge networks. */
  allocations?: Record<string, number[]>;
  /** Parts of the build only container runtimes apply. */
  build?: { ioWeight?: number; oomDisabled?: boolean; cpuset?: string | null };
  /** Progress of work before the launch (an image pull), a line at a time, for the console. */
  onDaemonMessage?: (line: string) => void;
}

export interface ExitInfo {
  code: number;
  signal: string | null;
  oomKilled: boolean;
}

export interface ProcessSample {
  cpuNs: number;
  memoryBytes: number;
  rxBytes: number;
  txBytes: number;
}

/** A running launch. Output is stdout and stderr interleaved, as a console shows them. */
export interface RuntimeProcess {
  readonly pid: number;
  /** When the launch started (ms since the epoch), if it may predate this daemon (adopted containers). */
  readonly startedAt?: number;
  onOutput(listener: (chunk: Buffer) => void): void;
  /** Resolves once the process and every process it left behind are gone. */
  readonly exited: Promise<ExitInfo>;
  write(data: string): boolean;
  /** Deliver a signal to the payload (the game's processes), never to the sandbox wrapper. */
  signal(signal: NodeJS.Signals): Promise<void>;
  /** SIGKILL everything belonging to this launch. */
  kill(): Promise<void>;
  /**
   * Apply new limits to the running launch (the panel changed the build). A process already using
   * more memory than the new limit is killed, and its exit reports `oomKilled`.
   */
  setLimits(limits: ResourceLimits): Promise<void>;
  /** Cumulative CPU time (ns), current memory use and cumulative TCP bytes received/sent. */
  sample(): Promise<ProcessSample>;
  /**
   * Let go of the launch and leave it running (drivers that `survivesRestart`): output, stats and
   * `exited` are no longer followed; a later daemon `adopt`s it.
   */
  detach?(): void;
}

export interface RuntimeInfo {
  driver: string;
  /** `bwrap`, `container` (docker), or `none` when running unconfined (operator opted in). */
  confinement: 'bwrap' | 'container' | 'none';
  /** `docker`: the engine applies the limits (cgroups of its own). */
  limits: 'cgroup-v2' | 'cgroup-v1' | 'watchdog' | 'docker';
  /**
   * `kernel` when cgroups enforce memory and process limits; `best-effort` when a watchdog polls
   * the process tree (a fast fork or memory bomb can outrun it between two polls).
   */
  enforcement: 'kernel' | 'best-effort';
}

export interface RuntimeDriver {
  readonly info: RuntimeInfo;
  /** Why servers cannot be started, or null if they can. */
  readonly refusal: string | null;
  /**
   * Where a launch sees the server directory and the install script directory (`/home/container`,
   * `/mnt/server`, `/mnt/install` when confined; the host paths when running unconfined).
   */
  insidePaths(
    kind: LaunchSpec['kind'],
    serverDir: string,
    installDir?: string,
  ): { root: string; install: string };
  /** Make a server directory usable by the unprivileged server user. */
  prepareDirectory(dir: string): Promise<void>;
  launch(spec: LaunchSpec): Promise<RuntimeProcess>;
  /**
   * True when launches outlive the daemon (containers): a daemon that stops leaves them running and
   * the next one `adopt`s them, instead of stopping every server at shutdown and starting it at boot.
   */
  readonly survivesRestart?: boolean;
  /** The server's launch left running by an earlier daemon, re-attached; null when none runs. */
  adopt?(id: string): Promise<RuntimeProcess | null>;
  /** Remove what the driver keeps for a server (its container) once the server is deleted. */
  forget?(id: string): Promise<void>;
}
