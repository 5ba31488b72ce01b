/**
 * Browser-test harness: a real panel process on a fresh temporary DATA_DIR and a free port, a real
 * SMTP server that keeps every mail, and Debian's Chromium driven by playwright-core.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const SCREENSHOTS = path.join(ROOT, 'test-output/screenshots');

// ---------------------------------------------------------------------------------------------
// Web build

/** Builds apps/web once when dist is missing or older than its sources (scripts/build-web.mjs). */
export function ensureWebBuilt(): void {
  const res = spawnSync(process.execPath, ['scripts/build-web.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`web build failed:\n${res.stdout}\n${res.stderr}`);
}

// ---------------------------------------------------------------------------------------------
// SMTP

export interface CapturedMail {
  to: string[];
  raw: string;
}

export interface MailCatcher {
  port: number;
  mails: CapturedMail[];
  waitFor: (to: string, timeoutMs?: number) => Promise<CapturedMail>;
  close: () => Promise<void>;
}

export async function startSmtp(): Promise<MailCatcher> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    mails,
    async waitFor(to, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((m) => m.to.includes(to));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable encoding so links in the body can be matched whole. */
export function decodeMail(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// ---------------------------------------------------------------------------------------------
// Panel

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface Panel {
  url: string;
  dataDir: string;
  /** The environment the panel runs with (for CLI calls against the same database). */
  env: NodeJS.ProcessEnv;
  admin: { username: string; password: string };
  output: () => string;
  createUser: (user: { email: string; username: string; password: string; admin?: boolean }) => void;
  stop: () => Promise<void>;
}

export async function startPanel(
  options: { env?: Record<string, string>; smtpPort?: number; unsetEnv?: string[] } = {},
): Promise<Panel> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talon-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Each panel starts its own local daemon: give it free ports and its own allocation range so
  // panels running one after another (or side by side) never fight over 8081/2022/25565.
  const daemonPort = await freePort();
  const sftpPort = await freePort();
  // 20000–29999: below the OS's ephemeral range (32768+), whose ports outgoing connections hold,
  // and apart from the panel tests' daemons (10000–19999), which run beside the browser tests.
  const allocationBase = 20_000 + Math.floor(Math.random() * 100) * 100;
  const env: NodeJS.ProcessEnv = {
    LOCAL_DAEMON_PORT: String(daemonPort),
    LOCAL_SFTP_PORT: String(sftpPort),
    LOCAL_ALLOCATIONS: `${allocationBase}-${allocationBase + 79}`,
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_URL: url,
    LOG_LEVEL: 'warn',
    RECAPTCHA_ENABLED: 'false',
    MAIL_ENCRYPTION: 'none',
    MAIL_FROM_ADDRESS: 'panel@example.test',
    ...(options.smtpPort ? { MAIL_HOST: '127.0.0.1', MAIL_PORT: String(options.smtpPort) } : {}),
    ...options.env,
  };
  delete env.DATABASE_URL;
  // e.g. MAIL_FROM_ADDRESS, to see the panel's own default as a fresh install has it
  for (const name of options.unsetEnv ?? []) delete env[name];
  // Node loads tsx itself, as `npm start` does: the tsx command relays signals and SIGKILLs a panel
  // slow to acknowledge them (a busy machine), which leaves the panel's local daemon running.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/panel/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`panel did not start within 60 s:\n${out}`)), 60_000);
    const check = () => {
      if (out.includes('Panel listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`panel exited with ${code}:\n${out}`));
    });
  });
  const match = /Admin user created: username=(\S+) password=(\S+)/.exec(out);
  if (!match) throw new Error(`no admin credentials in the panel output:\n${out}`);

  return {
    url,
    dataDir,
    env,
    admin: { username: match[1]!, password: match[2]! },
    output: () => out,
    createUser(user) {
      const args = [
        'apps/panel/src/cli/main.ts',
        'user:create',
        '--email',
        user.email,
        '--username',
        user.username,
        '--password',
        user.password,
      ];
      if (user.admin) args.push('--admin');
      const res = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), args, {
        cwd: ROOT,
        env,
        encoding: 'utf8',
      });
      if (res.status !== 0) throw new Error(`user:create failed:\n${res.stdout}\n${res.stderr}`);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        // The panel gives its daemon's servers 10 s and exits by itself within 14 s.
        await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Browser

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

/** A desktop-sized page in a fresh browser context (own cookies), with page errors logged. */
export async function newPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  return page;
}

/** Saves `{name}-desktop.png` and `{name}-mobile.png`, restoring the desktop size. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Let the 150 ms modal/fade transitions and the progress bar settle so the picture is stable.
  await page.waitForTimeout(700);
  // A full-page picture of a scrolled page shows the sticky top bar in mid-page: start at the top.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(MOBILE);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-mobile.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
}

// ---------------------------------------------------------------------------------------------
// TOTP (RFC 6238: SHA-1, 6 digits, 30 s), computed independently of the panel's implementation.

function base32Decode(input: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of input.replace(/=+$/, '').toUpperCase()) {
    const idx = alphabet.indexOf(char);
    if (idx === -1) throw new Error(`invalid base32 character ${char}`);
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function totp(secret: string, atMs = Date.now()): string {
  const counter = Math.floor(atMs / 1000 / 30);
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const hmac = createHmac('sha1', base32Decode(secret)).update(msg).digest();
  const offset = hmac[hmac.length - 1]! & 0xf;
  const code = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return code.toString().padStart(6, '0');
}

/** The 30-second step a time falls in. */
export function totpStep(atMs = Date.now()): number {
  return Math.floor(atMs / 30_000);
}

/** Waits until the next 30-second step begins (codes cannot be replayed within a step). */
export async function waitForNextTotpStep(after: number): Promise<void> {
  while (totpStep() <= after) {
    await new Promise((r) => setTimeout(r, 250));
  }
}
