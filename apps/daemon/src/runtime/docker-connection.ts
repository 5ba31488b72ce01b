import Dockerode from 'dockerode';

/** Where the Docker engine listens, as configured (`docker.host`, else `DOCKER_HOST`, else the default socket). */
export interface DockerEndpoint {
  /** The address as an operator writes it (`unix:///var/run/docker.sock`, `tcp://10.0.0.2:2375`). */
  address: string;
  /** The unix socket's path, when it is one. */
  socketPath: string | null;
  options: Dockerode.DockerOptions;
}

export const DEFAULT_DOCKER_HOST = 'unix:///var/run/docker.sock';

export function dockerEndpoint(configured: string, env: NodeJS.ProcessEnv = process.env): DockerEndpoint {
  const address = configured || env.DOCKER_HOST || DEFAULT_DOCKER_HOST;
  if (address.startsWith('unix://')) {
    const socketPath = address.slice('unix://'.length);
    return { address, socketPath, options: { socketPath } };
  }
  const url = new URL(address.replace(/^tcp:/u, 'http:'));
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  const port = url.port ? Number(url.port) : protocol === 'https' ? 2376 : 2375;
  return { address, socketPath: null, options: { host: url.hostname, port, protocol } };
}

export function connectDocker(endpoint: DockerEndpoint): Dockerode {
  return new Dockerode(endpoint.options);
}

/** How long the start-up check waits for the engine's answer. */
const PING_TIMEOUT_MS = 5_000;

/**
 * Null when the engine answers; otherwise why servers cannot run in containers, in words an
 * operator can act on (what is wrong and what to do about it).
 */
export async function whyDockerUnusable(docker: Dockerode, endpoint: DockerEndpoint): Promise<string | null> {
  const where = endpoint.socketPath
    ? `the Docker socket ${endpoint.socketPath}`
    : `the Docker engine at ${endpoint.address}`;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      docker.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
          PING_TIMEOUT_MS,
        );
      }),
    ]);
    return null;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { statusCode?: number };
    switch (e.code) {
      case 'ENOENT':
        return (
          `${where} does not exist: install Docker (apt-get install docker.io) and start it, ` +
          'or set docker.host in the daemon configuration to where the engine listens'
        );
      case 'EACCES':
      case 'EPERM':
        return (
          `permission denied on ${where}: run the daemon as root or add its user to the "docker" group ` +
          '(usermod -aG docker <user>, then log in again)'
        );
      case 'ECONNREFUSED':
        return `${where} refuses connections, so the Docker engine is not running: start it (systemctl start docker)`;
      case 'ETIMEDOUT':
        return `${where} did not answer within ${PING_TIMEOUT_MS / 1000} s: check that the Docker engine is healthy`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `the host name of docker.host (${endpoint.address}) cannot be resolved: correct docker.host`;
      default:
        return `${where} cannot be used: ${e.statusCode ? `the engine answered HTTP ${e.statusCode}` : e.message}`;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The engine's words for a failed call, without Dockerode's `(HTTP code 500) server error -` prefix. */
export function engineMessage(err: unknown): string {
  const e = err as { json?: { message?: string } | null; message?: string };
  const text = e.json?.message ?? e.message ?? String(err);
  return text.replace(/^\(HTTP code \d+\)[^-]*- /u, '').trim();
}
