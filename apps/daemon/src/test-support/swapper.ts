import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A separate process that swaps `at` between a real directory (holding `files`) and a symlink to
 * `target` as fast as it can: the attack of CVE-2024-27102 and 1.0.0-beta.8, where a server user
 * (or an SFTP client, which can make links) swaps a directory for a link while the daemon walks it.
 * A process of its own so the swaps really interleave with the daemon's awaits.
 */
export interface Swapper {
  /** Resolves once the loop runs. */
  ready: Promise<void>;
  /** Stop the loop; resolves to the number of swap rounds done. */
  stop(): Promise<number>;
}

const SCRIPT = `
  const fs = require('fs');
  const [at, target, stopFile, filesJson] = process.argv.slice(1);
  const files = JSON.parse(filesJson);
  let n = 0;
  process.stdout.write('R');
  while (!fs.existsSync(stopFile)) {
    try { fs.rmSync(at, { recursive: true, force: true }); } catch {}
    try { fs.symlinkSync(target, at); } catch {}
    // Keep the link about as long as the directory (the walks must meet both).
    for (let i = 0; i < 4; i++) try { fs.lstatSync(at); } catch {}
    try { fs.unlinkSync(at); } catch {}
    try {
      fs.mkdirSync(at);
      for (const [name, body] of Object.entries(files)) fs.writeFileSync(at + '/' + name, body);
    } catch {}
    n++;
  }
  process.stdout.write(String(n));
`;

export function startSwapper(at: string, target: string, files: Record<string, string> = {}): Swapper {
  const control = mkdtempSync(path.join(os.tmpdir(), 'talon-swapper-'));
  const stopFile = path.join(control, 'stop');
  const child = spawn(process.execPath, ['-e', SCRIPT, at, target, stopFile, JSON.stringify(files)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.startsWith('R')) started();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => started()); // never wait forever on a loop that died at once
  return {
    ready,
    async stop() {
      writeFileSync(stopFile, '');
      await exited;
      rmSync(control, { recursive: true, force: true });
      return Number(out.slice(1));
    },
  };
}

/** How long a race test may take to meet both sides of a swap before it says it never did. */
export const RACE_DEADLINE_MS = 60_000;

/**
 * Runs `round` at least `minRounds` times and then on until `met()` says the race was really met
 * (the walk or read ran into the link at least once). A loaded machine only makes that take
 * longer: the test fails only if it never happened within {@link RACE_DEADLINE_MS}, which means the
 * race was not exercised at all, never because the machine was slow.
 */
export async function raceUntilMet(
  round: (i: number) => Promise<void>,
  met: () => boolean,
  minRounds: number,
): Promise<void> {
  const deadline = Date.now() + RACE_DEADLINE_MS;
  for (let i = 0; i < minRounds || !met(); i++) {
    if (i >= minRounds && Date.now() > deadline) {
      throw new Error(`the swap was never met in ${i} rounds: the race was not exercised`);
    }
    await round(i);
  }
}
