import { chmod, chown, mkdir } from 'node:fs/promises';
import type Dockerode from 'dockerode';
import type { Logger } from 'pino';
import { containerUser, type DaemonConfig } from '../../config/config.ts';
import type { LaunchSpec, RuntimeDriver, RuntimeInfo, RuntimeProcess } from '../driver.ts';
import { SocketTable } from '../net-usage.ts';
import { SharedProcessTable } from '../proc.ts';
import { ContainerProcess } from './container-process.ts';
import {
  INSTALL_SCRIPT_DIR,
  INSTALL_SERVER_ROOT,
  SERVER_ROOT,
  containerName,
  containerOptions,
  type ContainerSettings,
} from './container-spec.ts';
import { ensureImage } from './images.ts';

export interface DockerDriverOptions {
  docker: Dockerode;
  config: DaemonConfig;
  log: Logger;
  /** Why the engine cannot be used (main.ts checked it), or null. */
  refusal?: string | null;
  /** The engine runs on this host, so container processes are visible in /proc (not a remote engine). */
  localEngine?: boolean;
}

function statusOf(err: unknown): number | undefined {
  return (err as { statusCode?: number }).statusCode;
}

/**
 * The `docker` runtime: each server is a container named by its uuid, created from the server's
 * image on every start; installs run in `<uuid>_installer`. Containers outlive the daemon: a daemon
 * that stops leaves them running and the next one re-attaches (Wings behaves the same way).
 */
export class DockerDriver implements RuntimeDriver {
  readonly info: RuntimeInfo = {
    driver: 'docker',
    confinement: 'container',
    limits: 'docker',
    enforcement: 'kernel',
  };
  readonly refusal: string | null;
  readonly survivesRestart = true;
  private readonly settings: ContainerSettings;
  private readonly docker: Dockerode;
  private readonly hostNetwork: { sockets: SocketTable; procs: SharedProcessTable } | null;
  private network: Promise<void> | null = null;

  constructor(private readonly opts: DockerDriverOptions) {
    const { config } = opts;
    this.docker = opts.docker;
    this.refusal = opts.refusal ?? null;
    const docker = config.docker;
    this.settings = {
      networkMode: docker.network.network_mode,
      interfaceAddress: docker.network.interface,
      dns: docker.network.dns,
      tmpfsMb: docker.tmpfs_size,
      pidLimit: docker.container_pid_limit,
      installerMinimum: { memoryMb: docker.installer_limits.memory, cpuPercent: docker.installer_limits.cpu },
      user: containerUser(config),
    };
    this.hostNetwork =
      this.settings.networkMode === 'host' && opts.localEngine !== false
        ? { sockets: new SocketTable(), procs: new SharedProcessTable() }
        : null;
  }

  insidePaths(kind: LaunchSpec['kind']): { root: string; install: string } {
    return kind === 'install'
      ? { root: INSTALL_SERVER_ROOT, install: INSTALL_SCRIPT_DIR }
      : { root: SERVER_ROOT, install: INSTALL_SCRIPT_DIR };
  }

  /** The directory is bound into the container: it belongs to the container's user. */
  async prepareDirectory(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    if (process.getuid?.() === 0) {
      await chown(dir, this.settings.user.uid, this.settings.user.gid);
      await chmod(dir, 0o700);
    }
  }

  async launch(spec: LaunchSpec): Promise<RuntimeProcess> {
    if (this.refusal) throw new Error(this.refusal);
    if (!spec.image) throw new Error('the server has no Docker image');
    const say = spec.onDaemonMessage ?? (() => {});
    // A leading `~` names a local image that is never pulled (Wings' convention).
    const local = spec.image.startsWith('~');
    const image = local ? spec.image.slice(1) : spec.image;
    try {
      if (local) await this.docker.getImage(image).inspect();
      else
        await ensureImage(this.docker, image, {
          registries: this.opts.config.docker.registries,
          onProgress: say,
        });
    } catch (err) {
      const message =
        statusOf(err) === 404
          ? `The image ${image} is not on this node (local images are never pulled)`
          : (err as Error).message;
      say(message);
      throw new Error(message);
    }
    if (spec.kind === 'server') await this.ensureNetwork();

    const name = containerName(spec);
    // Every start gets a fresh container (new image, limits, environment); a stale one goes first.
    await this.remove(name);
    const imageInfo = await this.docker.getImage(image).inspect();
    const hasCommand = !!(imageInfo.Config?.Entrypoint?.length || imageInfo.Config?.Cmd?.length);
    const container = await this.create(containerOptions(spec, image, this.settings, hasCommand));
    try {
      return await ContainerProcess.start(this.processOptions(container, spec.kind === 'install'));
    } catch (err) {
      await container.remove({ force: true }).catch(() => {});
      throw err;
    }
  }

  async adopt(id: string): Promise<RuntimeProcess | null> {
    const container = this.docker.getContainer(id);
    let running: boolean;
    try {
      running = (await container.inspect()).State.Running;
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw err;
    }
    if (!running) return null;
    return ContainerProcess.adopt(this.processOptions(container, false));
  }

  /** A deleted server's containers go with it (the installer's too, if one was left). */
  async forget(id: string): Promise<void> {
    await this.remove(id);
    await this.remove(`${id}_installer`);
  }

  private processOptions(container: Dockerode.Container, install: boolean) {
    return {
      docker: this.docker,
      container,
      log: this.opts.log.child({ container: container.id.slice(0, 12) }),
      removeOnExit: install,
      pidLimit: this.settings.pidLimit,
      hostNetwork: this.hostNetwork,
    };
  }

  /**
   * Create a container; an engine without an init binary (Podman without catatonit) gets the same
   * container without one: the game is PID 1 then, and ignores stop signals it does not handle.
   */
  private async create(options: Dockerode.ContainerCreateOptions): Promise<Dockerode.Container> {
    try {
      return await this.docker.createContainer(options);
    } catch (err) {
      if (!options.HostConfig?.Init || !/init binary|catatonit|docker-init/iu.test((err as Error).message))
        throw err;
      this.opts.log.warn({ err }, 'the container engine has no init binary; creating containers without one');
      return this.docker.createContainer({ ...options, HostConfig: { ...options.HostConfig, Init: false } });
    }
  }

  private async remove(name: string): Promise<void> {
    try {
      await this.docker.getContainer(name).remove({ force: true });
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
    }
  }

  /** The bridge network servers join, made once if missing (`host` and Docker's own need nothing). */
  private ensureNetwork(): Promise<void> {
    const mode = this.settings.networkMode;
    if (mode === 'host' || mode === 'bridge') return Promise.resolve();
    this.network ??= (async () => {
      try {
        await this.docker.getNetwork(mode).inspect();
      } catch (err) {
        if (statusOf(err) !== 404) throw err;
        this.opts.log.info({ network: mode }, 'creating the Docker network for servers');
        await this.docker.createNetwork({ Name: mode, Driver: 'bridge', CheckDuplicate: true });
      }
    })().catch((err: unknown) => {
      this.network = null;
      throw err;
    });
    return this.network;
  }
}
