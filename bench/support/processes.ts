import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** Starts a TypeScript script under tsx and resolves with the JSON it prints on its first line. */
export function startScript<T>(script: string, args: string[] = []): Promise<{ info: T; child: ChildProcess }> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, script), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n')[0];
      if (buffer.includes('\n') && line) resolve({ info: JSON.parse(line) as T, child });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}
