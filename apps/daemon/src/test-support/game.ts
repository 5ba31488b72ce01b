/**
 * The "game" our test servers run: a tiny Node script, written into the server directory by the
 * fixture install script. It behaves like a game server console: prints a Done line, echoes
 * commands, exits cleanly on `stop` or SIGINT (`save-stop` writes saved.txt first), and has
 * commands that probe the sandbox and limits.
 */
export const GAME_JS = String.raw`
const fs = require('fs');
const cp = require('child_process');
const say = (s) => process.stdout.write(s + '\n');
say('Starting game server as uid ' + process.getuid() + ' in ' + process.cwd());
setTimeout(() => say('Done (0.1s)! For help, type "help"'), 100);
process.on('SIGINT', () => { say('got SIGINT, saving world'); process.exit(0); });
const hog = [];
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) { const line = buf.slice(0, i).trim(); buf = buf.slice(i + 1); run(line); }
});
function run(line) {
  const [cmd, ...rest] = line.split(' ');
  const arg = rest.join(' ');
  if (cmd === 'stop') { say('Stopping server'); process.exit(0); }
  else if (cmd === 'save-stop') { fs.writeFileSync('saved.txt', 'world saved'); say('World saved, stopping'); process.exit(0); }
  else if (cmd === 'crash') { say('crashing'); process.exit(3); }
  else if (cmd === 'spam') { let out = ''; for (let n = 0; n < Number(arg); n++) out += 'spam line ' + n + '\n'; process.stdout.write(out); say('spam done'); }
  else if (cmd === 'mem') { for (let n = 0; n < Number(arg); n++) hog.push(Buffer.alloc(1024 * 1024, 1)); say('allocated ' + arg + ' MiB'); }
  else if (cmd === 'fork') {
    let ok = 0; let err = '';
    for (let n = 0; n < Number(arg); n++) { try { cp.spawn('sleep', ['20'], { stdio: 'ignore' }).on('error', (e) => { err = err || e.code; }); ok++; } catch (e) { err = e.code; break; } }
    setTimeout(() => say('forked ' + ok + ' errors ' + (err || 'none')), 500);
  }
  else if (cmd === 'read') { try { say('read ok [' + fs.readFileSync(arg, 'utf8').slice(0, 60) + ']'); } catch (e) { say('read denied ' + e.code); } }
  else if (cmd === 'ls') { try { say('ls ok [' + fs.readdirSync(arg).join(',') + ']'); } catch (e) { say('ls denied ' + e.code); } }
  else if (cmd === 'write') { try { fs.writeFileSync(arg, 'x'); say('write ok'); } catch (e) { say('write denied ' + e.code); } }
  else if (cmd === 'burn') { const end = Date.now() + Number(arg); while (Date.now() < end); say('burned'); }
  else say('> ' + line);
}
`;

export const INSTALL_SCRIPT = `#!/bin/bash
# CRLF endings must not matter\r
set -e
cd /mnt/server
cat > game.js <<'GAME'
${GAME_JS}
GAME
echo "installed into $(pwd) as uid $(id -u), server port $SERVER_PORT"
`;

export const FAILING_INSTALL_SCRIPT = `#!/bin/sh
echo "downloading..."
echo "download failed" >&2
exit 7
`;
