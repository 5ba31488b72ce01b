// The program of the console fan-out benchmark: a "game" that prints the Generic Node.js App egg's
// done string, waits `delayMs`, then prints lines as fast as its stdout takes them for `durationMs`,
// then idles until SIGINT/SIGTERM. Each line is `flood <seq> <monotonic ns> <padding>`: the stamp is
// `process.hrtime.bigint()` (CLOCK_MONOTONIC, the same clock in every process of this machine, and
// not namespaced by bubblewrap), taken when the line is made. Stdout is a pipe: the program waits for
// 'drain' whenever write() says the pipe is full, so it goes exactly as fast as its reader drains it
// (without that, Node queues the writes in memory and the stamps would measure that queue).
// Plain CommonJS: it is written to index.js and run by the host's `node`.

export const FLOOD_PREFIX = 'flood ';

export function floodApp(durationMs: number, delayMs: number): string {
  return `'use strict';
const pad = ' ' + 'x'.repeat(64);
const BATCH = 50;
const quit = () => process.exit(0);
process.on('SIGINT', quit);
process.on('SIGTERM', quit);
console.log('App ready on port ' + (process.env.SERVER_PORT || 0));
setInterval(() => {}, 1 << 30);
setTimeout(() => {
  const end = Date.now() + ${durationMs};
  let seq = 0;
  const burst = () => {
    if (Date.now() >= end) return void process.stdout.write('flood-end ' + seq + '\\n');
    let chunk = '';
    for (let i = 0; i < BATCH; i++) chunk += '${FLOOD_PREFIX}' + seq++ + ' ' + process.hrtime.bigint() + pad + '\\n';
    if (process.stdout.write(chunk)) setImmediate(burst);
    else process.stdout.once('drain', burst);
  };
  burst();
}, ${delayMs});
`;
}
