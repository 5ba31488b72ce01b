import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuilt, launchBrowser, newPage, startPanel, type Panel } from './harness.ts';
import {
  applicationApi,
  createServer,
  eggId,
  signIn,
  userId,
  waitForStatus,
  waitInstalled,
  type CreatedServer,
} from './servers.ts';

// Every screen of the web app under the panel's Content-Security-Policy in Chromium: a violation
// (a blocked script, style, image, websocket or request) is reported by the browser and fails the
// test. The site and user names are ones that broke naive HTML injection.
const SITE_NAME = "Talon $' $& </script><script>window.__pwned = 1</script>\u2028!";
const USER_FIRST = "$'</script><script>window.__pwned = 2</script>";
const owner = { email: 'csp-owner@example.test', username: 'cspowner', password: 'owner-password-1' };

interface Violation {
  directive: string;
  blocked: string;
  page: string;
}

let panel: Panel;
let browser: Browser;
let page: Page;
let server: CreatedServer;
const violations: Violation[] = [];

/** Visits a screen and waits for what shows it has rendered. */
async function visit(p: Page, url: string, ready: (p: Page) => Promise<unknown>) {
  const res = await p.goto(`${panel.url}${url}`);
  // The policy is really there (else "no violations" proves nothing).
  expect(res?.headers()['content-security-policy']).toContain("'nonce-");
  await ready(p);
}

describe('Content-Security-Policy in Chromium', () => {
  beforeAll(async () => {
    ensureWebBuilt();
    panel = await startPanel({ env: { APP_NAME: SITE_NAME } });
    panel.createUser(owner);
    const api = applicationApi(panel, panel.admin.username);
    const ownerId = await userId(api, owner.username);
    server = await createServer(api, {
      name: 'Policy World',
      user: ownerId,
      egg: await eggId(api, 'Node.js Game Server'),
    });
    await waitInstalled(api, server.id);
    const db = new Database(path.join(panel.dataDir, 'panel.sqlite'));
    db.prepare('UPDATE users SET name_first = ? WHERE id = ?').run(USER_FIRST, ownerId);
    db.close();

    browser = await launchBrowser();
    page = await newPage(browser);
    // Reported from inside each document (also across full page loads) to the test process.
    await page.exposeFunction('__reportCsp', (v: Violation) => violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        void (window as unknown as { __reportCsp: (v: unknown) => void }).__reportCsp({
          directive: e.effectiveDirective,
          blocked: e.blockedURI,
          page: location.pathname,
        });
      });
    });
  });

  afterAll(async () => {
    await browser?.close();
    await panel?.stop();
  });

  it('reports a violation when a page does break the policy (the listener works)', async () => {
    await visit(page, '/auth/login', (p) => p.getByLabel('Password').waitFor());
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inline = 1';
      document.head.append(s);
    });
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(violations[0]).toMatchObject({ directive: 'script-src-elem', blocked: 'inline' });
    expect(await page.evaluate(() => (window as unknown as { __inline?: number }).__inline)).toBeUndefined();
    violations.length = 0;
  });

  it('signs in and shows the guest screens without a violation; the site name shows as typed', async () => {
    await visit(page, '/auth/password', (p) => p.getByRole('button').first().waitFor());
    await visit(page, '/auth/login', (p) => p.getByLabel('Password').waitFor());
    await expect.poll(() => page.locator('body').innerText()).toContain("Talon $' $& </script><script>");
    await signIn(page, panel.url, owner.username, owner.password);
    expect(violations).toEqual([]);
  });

  it('shows the dashboard and account screens (two-factor QR code) without a violation; no injected script ran', async () => {
    await visit(page, '/', (p) => p.getByTestId('server-card').first().waitFor());
    const injected = await page.evaluate(() => {
      const w = window as unknown as {
        __pwned?: number;
        SiteConfiguration: { name: string };
        PterodactylUser: { name_first: string };
      };
      return { pwned: w.__pwned, site: w.SiteConfiguration.name, first: w.PterodactylUser.name_first };
    });
    expect(injected).toEqual({ pwned: undefined, site: SITE_NAME, first: USER_FIRST });
    await visit(page, '/account', (p) => p.getByRole('button', { name: /update password/iu }).waitFor());
    // The two-factor set-up dialog draws its QR code as an image.
    await page.getByRole('button', { name: 'Enable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enable Two-Factor' });
    await dialog.getByRole('img', { name: 'QR code to scan with an authenticator application' }).waitFor();
    await page.keyboard.press('Escape');
    await visit(page, '/account/api', (p) =>
      p
        .getByRole('button', { name: /create/iu })
        .first()
        .waitFor(),
    );
    expect(violations).toEqual([]);
  });

  it('shows the console (xterm, websocket to the daemon, start), files (upload to the daemon), editor, network, startup and settings without a violation', async () => {
    const base = `/server/${server.identifier}`;
    await visit(page, base, (p) => p.locator('[data-testid="console-terminal"] .xterm-rows').waitFor());
    // "offline" comes over the daemon's websocket: the connection was allowed.
    await waitForStatus(page, panel, 'offline', 30_000);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await waitForStatus(page, panel, 'running', 60_000);
    await visit(page, `${base}/files`, (p) => p.locator('[data-testid="file-row"]').first().waitFor());
    // Uploads go from the browser straight to the daemon.
    await page.getByTestId('upload-input').setInputFiles({
      name: 'policy.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('uploaded under the policy\n'),
    });
    await page.locator('[data-testid="file-row"][data-name="policy.txt"]').waitFor();
    expect(
      readFileSync(path.join(panel.dataDir, 'daemon', 'volumes', server.uuid, 'policy.txt'), 'utf8'),
    ).toBe('uploaded under the policy\n');
    await visit(page, `${base}/files/edit#/server.js`, (p) => p.locator('.cm-line').first().waitFor());
    await visit(page, `${base}/network`, (p) => p.getByText('Primary', { exact: true }).first().waitFor());
    await visit(page, `${base}/startup`, (p) => p.getByTestId('variable-MOTD').waitFor());
    await visit(page, `${base}/settings`, (p) => p.getByTestId('sftp-address').waitFor());
    // Back to the console, through the app's own navigation this time.
    await page.getByRole('link', { name: 'Console', exact: true }).click();
    await waitForStatus(page, panel, 'running', 30_000);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await waitForStatus(page, panel, 'offline', 60_000);
    expect(violations).toEqual([]);
  });
});
