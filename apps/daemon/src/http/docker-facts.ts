import type Dockerode from 'dockerode';

/**
 * Wings' `docker` block of `GET /api/system?v=2` (reference §2.3), for a node on the docker runtime.
 * A type, not an interface: it must fit the loose (index-signed) block of the shared schema.
 */
export type DockerFacts = {
  version: string;
  cgroups: { driver: string; version: string };
  containers: { total: number; running: number; paused: number; stopped: number };
  storage: { driver: string; filesystem: string };
  runc: { version: string };
};

interface EngineInfo {
  CgroupDriver?: string;
  CgroupVersion?: string;
  Containers?: number;
  ContainersRunning?: number;
  ContainersPaused?: number;
  ContainersStopped?: number;
  Driver?: string;
  DriverStatus?: [string, string][];
  RuncCommit?: { ID?: string };
}

/** Asks the engine; throws when it does not answer (the route then answers 500, as Wings does). */
export async function dockerFacts(docker: Dockerode): Promise<DockerFacts> {
  const [version, info] = await Promise.all([docker.version(), docker.info() as Promise<EngineInfo>]);
  return {
    version: version.Version,
    cgroups: { driver: info.CgroupDriver ?? '', version: info.CgroupVersion ?? '' },
    containers: {
      total: info.Containers ?? 0,
      running: info.ContainersRunning ?? 0,
      paused: info.ContainersPaused ?? 0,
      stopped: info.ContainersStopped ?? 0,
    },
    storage: {
      driver: info.Driver ?? '',
      filesystem: info.DriverStatus?.find(([key]) => key === 'Backing Filesystem')?.[1] ?? '',
    },
    runc: { version: info.RuncCommit?.ID ?? '' },
  };
}
