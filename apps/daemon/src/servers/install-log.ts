import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { DaemonConfig } from '../config/config.ts';
import { assertUuid } from '../fs/paths.ts';
import type { Server } from './server.ts';

/** Largest install log kept per server: the output's tail is kept, the start is dropped. */
export const INSTALL_LOG_LIMIT = 1024 * 1024;
/** The header's share of the limit (it lists the environment, which egg variables can make long). */
const HEADER_LIMIT = 64 * 1024;

/**
 * The last lines of an install's output, at most `limit` bytes of UTF-8: one noisy or hostile
 * script cannot fill the daemon's memory or disk. Counts what it dropped so the log can say so.
 */
export class InstallOutputTail {
  private lines: string[] = [];
  private start = 0;
  private bytes = 0;
  droppedLines = 0;

  constructor(private readonly limit = INSTALL_LOG_LIMIT - HEADER_LIMIT) {}

  push(line: string): void {
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line) + 1;
    while (this.bytes > this.limit && this.start < this.lines.length) {
      this.bytes -= Buffer.byteLength(this.lines[this.start]!) + 1;
      this.start++;
      this.droppedLines++;
    }
    // Compact now and then rather than shift() per line.
    if (this.start > 1024 && this.start > this.lines.length / 2) {
      this.lines = this.lines.slice(this.start);
      this.start = 0;
    }
  }

  snapshot(): string[] {
    return this.lines.slice(this.start);
  }
}

/**
 * The install of each server since the daemon started: its output so far, and whether it is still
 * running or failed. An admin's console that connects mid-install or after a failure is shown it.
 */
interface InstallRecord {
  output: InstallOutputTail;
  running: boolean;
  failed: boolean;
}
const records = new WeakMap<Server, InstallRecord>();

/** Starts a fresh record for an install of `server`; its output goes to the returned tail. */
export function beginInstallRecord(server: Server): InstallOutputTail {
  const output = new InstallOutputTail();
  records.set(server, { output, running: true, failed: false });
  return output;
}

export function endInstallRecord(server: Server, successful: boolean): void {
  const record = records.get(server);
  if (!record) return;
  record.running = false;
  record.failed = !successful;
}

/** The output to replay to a newly connected admin console: while installing or after a failure. */
export function installReplay(server: Server): string[] {
  const record = records.get(server);
  if (!record || !(record.running || record.failed)) return [];
  return record.output.snapshot();
}

export function installLogPath(config: DaemonConfig, uuid: string): string {
  return path.join(config.system.log_directory, 'install', `${assertUuid(uuid)}.log`);
}

/**
 * Writes `<log_directory>/install/<uuid>.log` (protocol §7.3): the header, then the output's tail.
 * The daemon's own directory, never the server's, so the server's user cannot forge or swap it;
 * written to a temporary name and renamed, so a reader never sees half a log.
 */
export async function writeInstallLog(
  config: DaemonConfig,
  uuid: string,
  header: string[],
  output: InstallOutputTail,
): Promise<void> {
  const file = installLogPath(config, uuid);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  let head = [...header, ''].join('\n');
  if (Buffer.byteLength(head) > HEADER_LIMIT) {
    head = `${Buffer.from(head)
      .subarray(0, HEADER_LIMIT - 64)
      .toString('utf8')}\n[header cut at ${HEADER_LIMIT} bytes]\n`;
  }
  const dropped = output.droppedLines
    ? `[${output.droppedLines} earlier lines dropped: the log keeps the last ${INSTALL_LOG_LIMIT} bytes]\n`
    : '';
  const lines = output.snapshot();
  const body = lines.length ? `${lines.join('\n')}\n` : '';
  const tmp = `${file}.${process.pid}.tmp`;
  // 'wx': a file left at the temporary name (or a link planted there) is never written through.
  await rm(tmp, { force: true });
  const handle = await open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(head + dropped + body);
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
}

/** The last install log of `uuid`, or null when none was written on this node. */
export async function readInstallLog(config: DaemonConfig, uuid: string): Promise<string | null> {
  try {
    return await readFile(installLogPath(config, uuid), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
