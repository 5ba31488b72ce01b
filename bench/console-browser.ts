// Console page under a flood: a server prints 50,000 lines as fast as it can (one write) while its
// console page is open in Chromium. Two scenarios, each with its own panel and daemon, in one run:
//   - unthrottled: the local daemon's console throttle raised (LOCAL_CONSOLE_THROTTLE_LINES) so
//     that all 50,000 lines reach the page's socket; all of them must reach xterm's buffer;
//   - Wings' throttle: the default 2000 lines per 100 ms; the daemon drops the excess (with its
//     notice), and every line the socket delivered must reach xterm.
// Reported for each, in the same run:
//   - raw socket delivery: first to last flood frame arriving on the page's WebSocket;
//   - terminal: first flood frame to the moment every received line was written into xterm;
//   - the longest main-thread task during the flood (PerformanceObserver 'longtask').
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ensureWebBuilt, launchBrowser, startPanel } from '../e2e/harness.ts';
import { applicationApi, eggId, signIn, userId } from '../e2e/servers.ts';

const LINES = 50_000;
const SCENARIOS = [
  { name: 'unthrottled', throttleLines: 1_000_000, mustDeliverAll: true },
  { name: "Wings' throttle", throttleLines: 2000, mustDeliverAll: false },
] as const;
type Scenario = (typeof SCENARIOS)[number];

const floodProgram = `'use strict';
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
console.log('App ready on port ' + (process.env.SERVER_PORT || 0));
setInterval(() => {}, 1 << 30);
setTimeout(() => {
  let chunk = '';
  for (let i = 0; i < ${LINES}; i++) chunk += 'flood ' + i + ' ' + 'x'.repeat(48) + '\\n';
  // The end marker follows once the pipe took everything, in a later throttle window than the flood.
  process.stdout.write(chunk, () => setTimeout(() => console.log('flood-end'), 500));
}, 1500);
`;

// Runs in the page before the app: counts flood frames on the WebSocket and collects long tasks.
const probe = `(() => {
  const w = window;
  w.__bench = { floodFrames: 0, consoleFrames: 0, firstFlood: 0, lastFlood: 0, longTasks: [], seen: new Set() };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (ev) => {
        const b = w.__bench;
        let frame;
        try { frame = JSON.parse(ev.data); } catch { return; }
        if (frame.event === 'console output' && frame.args[0] === 'flood-end') b.endAt = performance.now();
        if (['console output', 'install output', 'daemon message', 'daemon error'].includes(frame.event)) b.consoleFrames++;
        if (frame.event === 'console output' && String(frame.args[0]).startsWith('flood ')) {
          const now = performance.now();
          if (!b.firstFlood) b.firstFlood = now;
          b.lastFlood = now;
          b.floodFrames++;
          // One line per frame by the protocol; count each line in case a frame carries several.
          const parts = String(frame.args[0]).split(/\\r?\\n/).filter((l) => l.startsWith('flood '));
          if (parts.length > 1 && !b.multiSample) b.multiSample = JSON.stringify(String(frame.args[0]).slice(0, 200));
          for (const l of parts) b.seen.add(l.split(' ')[1]);
        }
      });
    }
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
})();`;

let failed = false;
ensureWebBuilt();
for (const scenario of SCENARIOS) failed = !(await withServer(scenario)) || failed;
if (failed) {
  console.error('console-browser: FAILED (lines missing from the socket or the terminal)');
  process.exitCode = 1;
}

/** A panel whose local daemon throttles at the scenario's rate, a flood server, its console page. */
async function withServer(scenario: Scenario): Promise<boolean> {
  const panel = await startPanel({ env: { LOCAL_CONSOLE_THROTTLE_LINES: String(scenario.throttleLines) } });
  try {
    const owner = { email: 'bench@example.test', username: 'bench', password: 'bench-password-1' };
    panel.createUser(owner);
    const api = applicationApi(panel, panel.admin.username);
    const created = await api.post<{ attributes: { identifier: string; uuid: string; node: number } }>(
      '/api/application/servers',
      {
        name: 'Flood',
        user: await userId(api, owner.username),
        egg: await eggId(api, 'Generic Node.js App'),
        docker_image: 'talon/host-node:20',
        startup: 'node index.js',
        environment: { MAIN_FILE: 'index.js', NODE_ARGS: '' },
        limits: { memory: 256, swap: 0, disk: 512, io: 500, cpu: 0 },
        feature_limits: { databases: 0, allocations: 1, backups: 0 },
        deploy: { locations: [], dedicated_ip: false, port_range: [] },
        skip_scripts: true,
      },
    );
    const server = created.attributes;
    const node = await api.get<{ attributes: { daemon_base: string } }>(
      `/api/application/nodes/${server.node}`,
    );
    // The daemon creates the server's directory once the panel has told it about the server.
    const dir = path.join(node.attributes.daemon_base, server.uuid);
    for (let i = 0; i < 50 && !existsSync(dir); i++) await new Promise((r) => setTimeout(r, 100));
    // Without install scripts it may only appear at the first start: make it now.
    mkdirSync(dir, { recursive: true });
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await page.addInitScript(probe);
      await signIn(page, panel.url, owner.username, owner.password);
      writeFileSync(path.join(dir, 'index.js'), floodProgram);
      return await runScenario(page, `${panel.url}/server/${server.identifier}`, scenario);
    } finally {
      await browser.close();
    }
  } finally {
    await panel.stop();
  }
}

function statusIs(page: Page, state: string, timeout: number) {
  return page.waitForFunction(
    (s) => document.querySelector('[data-testid="server-status"]')?.textContent === s,
    state,
    { timeout },
  );
}

/** Opens the console afresh (a new probe), floods it once, prints the figures; false on a loss. */
async function runScenario(page: Page, consoleUrl: string, scenario: Scenario): Promise<boolean> {
  await page.goto(consoleUrl);
  await statusIs(page, 'offline', 30_000);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  // Wait until every flood line arrived and every received console line reached the terminal.
  const result = await page
    .waitForFunction(
      (lines) => {
        const b = (
          window as unknown as { __bench: { floodFrames: number; consoleFrames: number; doneAt?: number } }
        ).__bench;
        const term = document.querySelector('[data-testid="console-terminal"]');
        const written = Number(term?.getAttribute('data-lines-written') ?? 0);
        const seen = (b as unknown as { seen: Set<string> }).seen.size;
        const ended = (b as unknown as { endAt?: number }).endAt !== undefined;
        if ((seen < lines && !ended) || written < b.consoleFrames) return null;
        b.doneAt ??= performance.now();
        return b;
      },
      LINES,
      { timeout: 60_000, polling: 'raf' },
    )
    .catch(async (error: unknown) => {
      const state = await page.evaluate(
        `JSON.stringify({ ...window.__bench, seen: window.__bench.seen.size, gaps: (() => { const g = []; let prev = -1; for (const n of [...window.__bench.seen].map(Number).sort((a, b) => a - b)) { if (n !== prev + 1) g.push([prev + 1, n - 1]); prev = n; } return g.slice(0, 20); })(), written: document.querySelector('[data-testid="console-terminal"]')?.getAttribute('data-lines-written'), status: document.querySelector('[data-testid="server-status"]')?.textContent })`,
      );
      console.error('console-browser: stuck', state);
      console.error(
        (await page.locator('[data-testid="console-terminal"] .xterm-rows').innerText()).slice(-2000),
      );
      throw error;
    });
  const bench = await result.evaluate((b) => {
    const x = b as unknown as {
      floodFrames: number;
      consoleFrames: number;
      firstFlood: number;
      lastFlood: number;
      doneAt: number;
      longTasks: { start: number; duration: number }[];
      seen: Set<string>;
    };
    return {
      floodFrames: x.floodFrames,
      unique: x.seen.size,
      consoleFrames: x.consoleFrames,
      socketMs: x.lastFlood - x.firstFlood,
      terminalMs: x.doneAt - x.firstFlood,
      longest: Math.max(0, ...x.longTasks.filter((t) => t.start >= x.firstFlood).map((t) => t.duration)),
      longCount: x.longTasks.filter((t) => t.start >= x.firstFlood).length,
    };
  });
  const written = Number(await page.getByTestId('console-terminal').getAttribute('data-lines-written'));
  await page.waitForTimeout(300);
  const rows = await page.locator('[data-testid="console-terminal"] .xterm-rows').innerText();
  const lastShown = rows.includes(`flood ${LINES - 1} `);
  // Responsiveness after the flood: a click on the command input answers promptly.
  const t0 = Date.now();
  await page.getByLabel('Console command').click();
  const clickMs = Date.now() - t0;

  console.log(
    `console-browser (${scenario.name}, ${scenario.throttleLines} lines per 100 ms): ${LINES} lines printed in one write, console page open in Chromium`,
  );
  console.log(`  flood lines received on the socket: ${bench.floodFrames} (${bench.unique} distinct)`);
  console.log(
    `  console lines written to xterm: ${written} (received ${bench.consoleFrames}); last line on screen: ${lastShown}`,
  );
  console.log(`  raw socket delivery, first to last flood frame: ${bench.socketMs.toFixed(0)} ms`);
  console.log(`  terminal, first flood frame to all lines written: ${bench.terminalMs.toFixed(0)} ms`);
  console.log(`  ratio terminal / socket: ${(bench.terminalMs / bench.socketMs).toFixed(3)}`);
  console.log(
    bench.longCount === 0
      ? '  longest main-thread task during the flood: under 50 ms (no long task reported)'
      : `  longest main-thread task during the flood: ${bench.longest.toFixed(0)} ms (${bench.longCount} tasks over 50 ms)`,
  );
  console.log(`  click on the command input after the flood: ${clickMs} ms`);
  if (bench.unique < LINES)
    console.log(`  the daemon's throttle dropped ${LINES - bench.unique} lines before the socket`);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await statusIs(page, 'offline', 30_000);
  // Every line the socket delivered reached xterm; the paced flood must also lose nothing before it.
  return (
    written >= bench.consoleFrames &&
    (lastShown || !scenario.mustDeliverAll) &&
    (bench.unique === LINES || !scenario.mustDeliverAll)
  );
}
