import { Jail } from '../fs/jail.ts';
import type { Logger } from 'pino';
import type { DaemonConfig } from '../config/config.ts';
import type { RemoteClient } from '../panel/client.ts';
import type { RuntimeDriver } from '../runtime/driver.ts';
import { runInstall } from './installer.ts';
import { Server } from './server.ts';
import { StatesFile } from './states-file.ts';

export interface ManagerDeps {
  config: DaemonConfig;
  remote: RemoteClient;
  driver: RuntimeDriver;
  log: Logger;
}

const BOOT_CONCURRENCY = 4;

/** All servers of this node; loads them from the panel and restores their last state at boot. */
export class ServerManager {
  private readonly servers = new Map<string, Server>();
  private readonly states: StatesFile;
  private closing = false;

  constructor(private readonly deps: ManagerDeps) {
    this.states = new StatesFile(deps.config.system.root_directory);
  }

  get(uuid: string): Server | undefined {
    return this.servers.get(uuid);
  }

  all(): Server[] {
    return [...this.servers.values()];
  }

  private make(config: Server['config']): Server {
    const server = new Server(config, { ...this.deps, onStateChange: () => void this.persist() });
    this.servers.set(server.uuid, server);
    return server;
  }

  private persist(): Promise<void> {
    if (this.closing) return Promise.resolve(); // shutdown kills processes; their last state must survive
    const map = Object.fromEntries(this.all().map((s) => [s.uuid, s.state]));
    return this.states
      .write(map)
      .catch((err: Error) => this.deps.log.error({ err }, 'cannot write states.json'));
  }

  /** Boot: fetch every server, restart those that were running, then tell the panel to reset. */
  async boot(): Promise<void> {
    const { remote, config, log } = this.deps;
    const list = await remote.listServers(config.remote_query.boot_servers_per_page);
    for (const entry of list) {
      if (!entry.config)
        log.error(
          { server: entry.uuid, error: entry.error },
          'skipping server with an invalid configuration',
        );
      else this.make(entry.config);
    }
    log.info({ count: this.servers.size }, 'loaded servers from the panel');
    const adopted = await this.adoptRunning();
    const last = await this.states.read();
    const toStart = this.all().filter(
      (s) => !adopted.has(s.uuid) && (last[s.uuid] === 'running' || last[s.uuid] === 'starting'),
    );
    for (const s of this.all()) s.disk.refreshIfStale();
    const queue = [...toStart];
    const worker = async (): Promise<void> => {
      for (let s = queue.shift(); s; s = queue.shift()) {
        try {
          await s.power('start', 30_000);
        } catch (err) {
          log.error({ err, server: s.uuid }, 'could not restore running state');
        }
      }
    };
    // Restores run in the background so the HTTP API is up meanwhile.
    void Promise.all(Array.from({ length: BOOT_CONCURRENCY }, worker)).then(() => this.persist());
    void remote
      .resetStates()
      .catch((err: Error) => log.error({ err }, 'POST /api/remote/servers/reset failed'));
  }

  /**
   * Containers an earlier daemon left running are taken over, not restarted (drivers that survive
   * a restart only). Returns the uuids of the servers running again.
   */
  private async adoptRunning(): Promise<Set<string>> {
    const { driver, log } = this.deps;
    const adopted = new Set<string>();
    if (!driver.survivesRestart || !driver.adopt) return adopted;
    const adopt = driver.adopt.bind(driver);
    await Promise.all(
      this.all().map(async (server) => {
        try {
          const proc = await adopt(server.uuid);
          if (!proc) return;
          server.adopt(proc);
          adopted.add(server.uuid);
          log.info({ server: server.uuid }, 're-attached to the running server');
        } catch (err) {
          log.error({ err, server: server.uuid }, 'could not re-attach to the running server');
        }
      }),
    );
    return adopted;
  }

  /** POST /api/servers: fetch the configuration, register, then install (and start) in the background. */
  async create(uuid: string, startOnCompletion: boolean): Promise<Server> {
    const config = await this.deps.remote.getServer(uuid);
    const existing = this.servers.get(uuid);
    if (existing) {
      existing.config = config;
      return existing;
    }
    const server = this.make(config);
    void this.persist();
    void (async () => {
      const ok = await this.install(server, false);
      if (ok && startOnCompletion) await server.power('start', 30_000);
    })().catch((err: Error) =>
      this.deps.log.error({ err, server: uuid }, 'install/start after create failed'),
    );
    return server;
  }

  async install(server: Server, reinstall: boolean): Promise<boolean> {
    return runInstall(server, reinstall, this.deps);
  }

  async delete(uuid: string): Promise<void> {
    const server = this.servers.get(uuid);
    if (!server) return;
    await server.destroy();
    await this.deps.driver
      .forget?.(uuid)
      .catch((err: Error) =>
        this.deps.log.error({ err, server: uuid }, 'cannot remove the server container'),
      );
    this.servers.delete(uuid);
    await this.persist();
    // Files go in the background, as with Wings; a failure is only logged.
    // By descriptor: links the server left inside are removed as links, never followed.
    void new Jail(server.dir)
      .destroy()
      .catch((err: Error) => this.deps.log.error({ err, server: uuid }, 'cannot remove server files'));
  }

  /**
   * Daemon shutdown: stop every server by its egg's stop command, all at once, each killed after
   * `system.shutdown_timeout` seconds; states.json keeps the states as they were, so boot restores them.
   * Containers (a driver that survives restarts) are left running instead, for the next boot to adopt.
   */
  async close(): Promise<void> {
    this.closing = true;
    const graceMs = this.deps.config.system.shutdown_timeout * 1000;
    await Promise.all(this.all().map((s) => s.shutdown(graceMs)));
  }
}
