import type Dockerode from 'dockerode';
import { installInterpreter } from '@talon/shared';
import type { LaunchSpec } from '../driver.ts';
import { resourceConfig } from './limits.ts';

/** The node's container settings a container spec needs (the `docker` section, resolved). */
export interface ContainerSettings {
  /** `host`, `bridge` or a network's name. */
  networkMode: string;
  /** Address that stands in for 127.0.0.1 in bridge networks (the Docker interface). */
  interfaceAddress: string;
  dns: string[];
  tmpfsMb: number;
  pidLimit: number;
  /** Installer floor: MB of memory and percent of CPU (0 = unlimited CPU). */
  installerMinimum: { memoryMb: number; cpuPercent: number };
  user: { uid: number; gid: number };
}

export const SERVER_ROOT = '/home/container';
export const INSTALL_SERVER_ROOT = '/mnt/server';
export const INSTALL_SCRIPT_DIR = '/mnt/install';

/** Docker's container name for a launch: the server uuid, or `<uuid>_installer`. */
export function containerName(spec: Pick<LaunchSpec, 'id' | 'kind'>): string {
  return spec.kind === 'install' ? `${spec.id}_installer` : spec.id;
}

/**
 * How a container is created for a launch (Wings protocol §7.3 and §8.13). Egg values only ever
 * travel in `Env`; the container never gets the Docker socket, never runs privileged, and joins the
 * host's network only when the node is configured so.
 *
 * `imageHasCommand`: the image brings its own entrypoint or command (the community's yolks do): it
 * runs as the image wants and reads the start command from `STARTUP`, already expanded. An image
 * without one (a plain root filesystem) runs the start command with its `sh`.
 */
export function containerOptions(
  spec: LaunchSpec,
  image: string,
  settings: ContainerSettings,
  imageHasCommand: boolean,
): Dockerode.ContainerCreateOptions {
  const install = spec.kind === 'install';
  const env = { ...spec.env };
  // The image knows where its programs are (a JDK under /opt…): the host's PATH is not its PATH.
  delete env.PATH;
  const host = settings.networkMode === 'host';
  if (!install && !host && env.SERVER_IP === '127.0.0.1') env.SERVER_IP = settings.interfaceAddress;
  let cmd: string[] | undefined;
  if (install) {
    const interpreter = installInterpreter(spec.entrypoint ?? 'sh');
    if (!interpreter) throw new Error(`install entrypoint ${JSON.stringify(spec.entrypoint)} is not allowed`);
    cmd = [interpreter, `${INSTALL_SCRIPT_DIR}/install.sh`];
  } else if (imageHasCommand && spec.startup !== undefined) {
    env.STARTUP = spec.startup;
  } else {
    cmd = spec.argv;
  }

  const limits = install
    ? {
        ...spec.limits,
        // The installer gets at least the node's floor, and no process limit (package managers fork a lot).
        memoryBytes:
          spec.limits.memoryBytes === 0
            ? 0
            : Math.max(spec.limits.memoryBytes, settings.installerMinimum.memoryMb * 1024 * 1024),
        cpuPercent:
          settings.installerMinimum.cpuPercent === 0 || spec.limits.cpuPercent === 0
            ? 0
            : Math.max(spec.limits.cpuPercent, settings.installerMinimum.cpuPercent),
        pids: 0,
      }
    : { ...spec.limits, pids: settings.pidLimit };

  const ports = host || install ? {} : publishedPorts(spec.allocations ?? {}, settings.interfaceAddress);
  const mounts: Dockerode.MountSettings[] = install
    ? [
        { Type: 'bind', Source: spec.serverDir, Target: INSTALL_SERVER_ROOT, ReadOnly: false },
        { Type: 'bind', Source: spec.installDir!, Target: INSTALL_SCRIPT_DIR, ReadOnly: false },
      ]
    : [{ Type: 'bind', Source: spec.serverDir, Target: SERVER_ROOT, ReadOnly: false }];

  return {
    name: containerName(spec),
    Image: image,
    Hostname: install ? 'installer' : spec.id,
    // The installer runs as the image's user (usually root: package managers); servers never do.
    User: install ? undefined : `${settings.user.uid}:${settings.user.gid}`,
    Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
    Cmd: cmd,
    WorkingDir: install ? INSTALL_SERVER_ROOT : SERVER_ROOT,
    Labels: { Service: 'Talon', ContainerType: install ? 'server_installer' : 'server_process' },
    Tty: false,
    OpenStdin: true,
    StdinOnce: false,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    ExposedPorts: ports.exposed,
    HostConfig: {
      Mounts: mounts,
      Tmpfs: { '/tmp': `rw,exec,nosuid,size=${settings.tmpfsMb}M` },
      NetworkMode: settings.networkMode,
      PortBindings: ports.bindings,
      // Docker refuses DNS servers with the host's network: the host's resolver applies there.
      Dns: host ? undefined : settings.dns,
      Privileged: false,
      ReadonlyRootfs: !install,
      SecurityOpt: ['no-new-privileges'],
      // Servers run as an unprivileged user and need no capability; installers keep Docker's
      // default set (chown and friends for package managers), as Wings gives them.
      CapDrop: install ? undefined : ['ALL'],
      // A tiny init as PID 1 forwards stop signals to the game (a shell as PID 1 ignores them) and
      // reaps what the game leaves behind.
      Init: true,
      ...resourceConfig(limits),
      BlkioWeight: spec.build?.ioWeight,
      OomKillDisable: install ? false : (spec.build?.oomDisabled ?? false),
      CpusetCpus: install ? undefined : (spec.build?.cpuset ?? undefined) || undefined,
      LogConfig: {
        Type: 'local',
        Config: { 'max-size': '5m', 'max-file': '1', compress: 'false', mode: 'non-blocking' },
      },
    },
  };
}

/** Every allocation port, TCP and UDP, bound on its address (127.0.0.1 → the Docker interface). */
function publishedPorts(
  mappings: Record<string, number[]>,
  interfaceAddress: string,
): {
  exposed?: Record<string, object>;
  bindings?: Record<string, Array<{ HostIp: string; HostPort: string }>>;
} {
  const exposed: Record<string, object> = {};
  const bindings: Record<string, Array<{ HostIp: string; HostPort: string }>> = {};
  for (const [ip, ports] of Object.entries(mappings)) {
    const hostIp = ip === '127.0.0.1' ? interfaceAddress : ip;
    for (const port of ports) {
      if (!Number.isInteger(port) || port < 1 || port > 65535) continue;
      for (const proto of ['tcp', 'udp']) {
        const key = `${port}/${proto}`;
        exposed[key] = {};
        (bindings[key] ??= []).push({ HostIp: hostIp, HostPort: String(port) });
      }
    }
  }
  return Object.keys(exposed).length ? { exposed, bindings } : {};
}
