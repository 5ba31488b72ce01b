import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SERVER_STATES, type ServerState } from '@talon/shared';

/**
 * `<root_directory>/states.json`: uuid → last state, so a restarted daemon restarts what was running.
 * Writes are serialised and atomic (write + rename) so a crash never leaves half a file.
 */
export class StatesFile {
  private readonly file: string;
  private chain: Promise<void> = Promise.resolve();

  constructor(rootDir: string) {
    this.file = path.join(rootDir, 'states.json');
  }

  async read(): Promise<Record<string, ServerState>> {
    try {
      const raw = JSON.parse(await readFile(this.file, 'utf8')) as Record<string, unknown>;
      const out: Record<string, ServerState> = {};
      for (const [k, v] of Object.entries(raw)) {
        if ((SERVER_STATES as readonly unknown[]).includes(v)) out[k] = v as ServerState;
      }
      return out;
    } catch {
      return {};
    }
  }

  write(states: Record<string, ServerState>): Promise<void> {
    const body = JSON.stringify(states);
    this.chain = this.chain.then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.tmp`;
      await writeFile(tmp, body, { mode: 0o600 });
      await rename(tmp, this.file);
    });
    return this.chain;
  }
}
