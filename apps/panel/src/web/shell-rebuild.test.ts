import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

let panel: TestPanel | undefined;
let dist: string;

afterEach(async () => {
  await panel?.close();
  panel = undefined;
  rmSync(dist, { recursive: true, force: true });
});

/** What `npm run build -w apps/web` leaves: an index.html naming one hashed script, and that script. */
function build(dir: string, asset: string, when?: Date) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  const index = path.join(dir, 'index.html');
  writeFileSync(
    index,
    `<!doctype html><html><head><!-- talon:bootstrap --><script type="module" src="/assets/${asset}"></script></head><body><div id="app"></div></body></html>`,
  );
  writeFileSync(path.join(dir, 'assets', asset), `console.log(${JSON.stringify(asset)});`);
  // Explicit times: a rebuild within the file system's timestamp granularity must still be seen.
  if (when) utimesSync(index, when, when);
}

describe('the HTML shell after the web app is rebuilt', () => {
  it('serves the new index.html and its new assets to a panel that kept running', async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'talon-web-'));
    build(dist, 'a-1.js', new Date('2026-01-01T00:00:00Z'));
    panel = await startTestPanel({}, { webDist: dist });
    const client = new TestClient(panel.url);

    const before = await client.get('/');
    expect(before.status).toBe(200);
    expect(before.text).toContain('/assets/a-1.js');
    expect((await client.get('/assets/a-1.js')).status).toBe(200);

    build(dist, 'a-2.js', new Date('2026-01-01T00:00:01Z'));

    const after = await client.get('/server/abc');
    expect(after.status).toBe(200);
    expect(after.text).toContain('/assets/a-2.js');
    expect(after.text).not.toContain('a-1.js');
    // The shell's injection still happens in the re-read template.
    expect(after.text).toContain('window.SiteConfiguration');
    const asset = await client.get('/assets/a-2.js');
    expect(asset.status).toBe(200);
    expect(asset.text).toBe('console.log("a-2.js");');
    // The old hashed asset is gone with the old build.
    const gone = await client.get('/assets/a-1.js');
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('NotFoundHttpException');
  });

  it('serves a web app built only after the panel started', async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'talon-web-'));
    rmSync(dist, { recursive: true });
    panel = await startTestPanel({}, { webDist: dist });
    const client = new TestClient(panel.url);
    expect((await client.get('/')).text).toContain('not built yet');
    expect((await client.get('/assets/a-1.js')).status).toBe(404);

    build(dist, 'a-1.js');

    const page = await client.get('/');
    expect(page.text).toContain('/assets/a-1.js');
    expect(page.text).not.toContain('not built yet');
    expect((await client.get('/assets/a-1.js')).status).toBe(200);
  });
});
