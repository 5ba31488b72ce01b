import { chown, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { DaemonConfig } from '../config/config.ts';
import { Jail } from '../fs/jail.ts';
import { assertUuid } from '../fs/paths.ts';
import type { RemoteClient } from '../panel/client.ts';
import type { RuntimeDriver } from '../runtime/driver.ts';
import { LineSplitter } from './console.ts';
import { buildEnvironment } from './environment.ts';
import { resolveInstallInterpreter } from './install-interpreter.ts';
import {
  beginInstallRecord,
  endInstallRecord,
  writeInstallLog,
  type InstallOutputTail,
} from './install-log.ts';
import { ServerError } from './errors.ts';
import type { Server } from './server.ts';

export interface InstallerDeps {
  config: DaemonConfig;
  remote: RemoteClient;
  driver: RuntimeDriver;
  log: Logger;
}

// Installer floor, as Wings gives install containers at least 1 GiB.
const INSTALL_MIN_MEMORY = 1024 * 1024 * 1024;

/**
 * Runs the egg's install script for a server (Wings protocol §7.3, process runtime): the server
 * directory at /mnt/server, the script at /mnt/install/install.sh, the server's environment, as the
 * unprivileged server user. Unlike Wings, a non-zero exit status is a failed install.
 */
export async function runInstall(server: Server, reinstall: boolean, deps: InstallerDeps): Promise<boolean> {
  if (server.installing) throw new ServerError('install: cannot obtain installation lock', 409);
  server.installing = true;
  let successful = false;
  const output = beginInstallRecord(server);
  // Every line of the install goes to the admin's console and to the log kept for the server view.
  const say = (line: string) => {
    output.push(line);
    server.bus.emit('install output', line);
  };
  try {
    // The directory exists once a server is installed, even without a script: files can be
    // written into it (an accepted EULA, an upload) before the first start.
    await deps.driver.prepareDirectory(server.dir);
    if (server.config.settings.skip_egg_scripts) {
      successful = true;
    } else {
      server.bus.emit('install started');
      successful = await execute(server, deps, output, say);
    }
  } catch (err) {
    deps.log.error({ err, server: server.uuid }, 'installation failed');
    say(`installation failed: ${(err as Error).message}`);
    // A failure before the script ran (no script from the panel, the runtime refused) is logged too.
    await writeInstallLog(deps.config, server.uuid, failureHeader(server.uuid), output).catch((e: Error) =>
      deps.log.error({ err: e, server: server.uuid }, 'could not write the install log'),
    );
  } finally {
    endInstallRecord(server, successful);
    server.installing = false;
  }
  try {
    await deps.remote.reportInstall(server.uuid, { successful, reinstall });
  } catch (err) {
    deps.log.error({ err, server: server.uuid }, 'could not report the installation result to the panel');
  }
  server.setState('offline');
  server.bus.emit('install completed');
  return successful;
}

async function execute(
  server: Server,
  deps: InstallerDeps,
  output: InstallOutputTail,
  say: (line: string) => void,
): Promise<boolean> {
  const { config, driver, remote } = deps;
  const script = await remote.getInstallScript(server.uuid);
  const interpreter = resolveInstallInterpreter(script.entrypoint);
  if ('refused' in interpreter) {
    say(`installation refused: ${interpreter.refused}`);
    deps.log.warn({ server: server.uuid, entrypoint: script.entrypoint }, 'install entrypoint refused');
    await writeInstallLog(
      config,
      server.uuid,
      [...logHeader(server.uuid, script, 'refused', driver.info.driver), 'output:'],
      output,
    );
    return false;
  }
  const tmp = path.join(config.system.tmp_directory, assertUuid(server.uuid));
  // The install script made what is in there: removed by descriptor, links never followed.
  await new Jail(tmp).destroy();
  // The parent keeps the usual mode: created 0700 by root, the server user could not reach its own
  // script when running unconfined (no bind mount to stand in for the path).
  await mkdir(config.system.tmp_directory, { recursive: true });
  await mkdir(tmp, { recursive: true, mode: 0o700 });
  await writeFile(path.join(tmp, 'install.sh'), script.script.replace(/\r\n/g, '\n'), { mode: 0o644 });
  if (process.getuid?.() === 0) await chown(tmp, config.runtime.uid, config.runtime.gid);

  const inside = driver.insidePaths('install', server.dir, tmp);
  const env = buildEnvironment(server.config, {
    timezone: config.system.timezone,
    home: inside.root,
    onRefused: (name, why) => {
      say(`variable ${name} was not passed to the installer: ${why}`);
      deps.log.warn({ server: server.uuid, variable: name }, 'egg variable refused');
    },
  });
  server.bus.emit('daemon message', 'Starting installation process, this could take a few minutes...');

  const build = server.config.settings.build;
  const proc = await driver.launch({
    id: server.uuid,
    kind: 'install',
    serverDir: server.dir,
    installDir: tmp,
    argv: [interpreter.path, path.join(inside.install, 'install.sh')],
    env,
    // Container runtimes run the script in the egg's install image, with its own interpreter.
    image: script.container_image,
    entrypoint: script.entrypoint,
    onDaemonMessage: (line) => server.bus.emit('daemon message', line),
    limits: {
      memoryBytes: Math.max(server.memoryLimitBytes, INSTALL_MIN_MEMORY),
      swapBytes: -1,
      pids: config.runtime.pid_limit,
      cpuPercent: build.cpu_limit > 0 ? Math.max(build.cpu_limit, 100) : 0,
    },
  });
  const splitter = new LineSplitter(say);
  proc.onOutput((c) => splitter.push(c));
  const exit = await proc.exited;
  splitter.flush();
  const ok = exit.code === 0;
  say(`install script exited with code ${exit.code}${exit.oomKilled ? ' (out of memory)' : ''}`);

  const header = [
    ...logHeader(server.uuid, script, `ran ${interpreter.path}`, driver.info.driver),
    `exit code: ${exit.code}`,
    '',
    'environment:',
    ...Object.entries(env).map(([k, v]) => `  ${k}=${v}`),
    '',
    'output:',
  ];
  await writeInstallLog(config, server.uuid, header, output);
  await new Jail(tmp).destroy();
  await server.disk.refresh();
  return ok;
}

function logHeader(
  uuid: string,
  script: { container_image: string; entrypoint: string },
  ran: string,
  runtime: string,
): string[] {
  // Only a container runtime runs the script in the egg's image, with the image's interpreter.
  const inImage = runtime !== 'process';
  return [
    `Talon server installation log`,
    `server: ${uuid}`,
    `runtime: ${runtime}`,
    inImage
      ? `image: ${script.container_image}`
      : `image (ignored by the process runtime): ${script.container_image}`,
    inImage ? `entrypoint: ${script.entrypoint}` : `entrypoint: ${script.entrypoint} (${ran})`,
  ];
}

function failureHeader(uuid: string): string[] {
  return [`Talon server installation log`, `server: ${uuid}`, '', 'output:'];
}
