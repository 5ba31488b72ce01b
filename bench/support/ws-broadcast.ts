// The console fan-out baseline: a plain `ws` WebSocketServer that runs the flood program (argv[2])
// with `node` on a pipe, splits its stdout into lines and broadcasts each line to every client as the
// daemon's frame, `{"event":"console output","args":[line]}` (serialized once per line). A client
// message `start <cap>` runs the program once; cap = lines per 100 ms window (the daemon's throttle
// rule), 0 = no cap. Prints one JSON line {url} and serves until SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { WebSocketServer, type WebSocket } from 'ws';
import { exitWithOwner } from './owner.ts';

const program = process.argv[2]!;
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
const clients = new Set<WebSocket>();
let flood: ChildProcess | null = null;

function run(cap: number): void {
  flood?.kill('SIGKILL');
  const child = spawn(process.execPath, [program], { stdio: ['ignore', 'pipe', 'inherit'] });
  flood = child;
  let partial = '';
  let windowStart = 0;
  let inWindow = 0;
  const broadcast = (line: string) => {
    if (cap > 0) {
      const now = performance.now();
      if (now - windowStart >= 100) {
        windowStart = now;
        inWindow = 0;
      }
      if (++inWindow > cap) return;
    }
    const frame = JSON.stringify({ event: 'console output', args: [line] });
    for (const ws of clients) ws.send(frame);
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    const parts = (partial + text).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) broadcast(line);
  });
}

wss.on('connection', (ws) => {
  clients.add(ws);
  ws.on('close', () => clients.delete(ws));
  ws.on('message', (data: Buffer) => {
    const [command, cap] = data.toString().split(' ');
    if (command === 'start') run(Number(cap ?? 0));
    if (command === 'stop') flood?.kill('SIGKILL');
  });
});
await new Promise((resolve) => wss.once('listening', resolve));
const address = wss.address();
console.log(
  JSON.stringify({ url: `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }),
);
const quit = () => {
  flood?.kill('SIGKILL');
  process.exit(0);
};
process.on('SIGTERM', quit);
exitWithOwner(quit);
