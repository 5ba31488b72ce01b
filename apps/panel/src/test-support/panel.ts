import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { buildApp } from '../app.ts';
import { bootstrap } from '../bootstrap.ts';
import type { AppContext } from '../context.ts';
import type { User } from '../db/types.ts';
import { SESSION_COOKIE, XSRF_COOKIE } from '../http/session.ts';
import { TestClient } from './client.ts';
import { createTestDatabase } from './database.ts';

export interface TestPanel {
  url: string;
  ctx: AppContext;
  app: FastifyInstance;
  /** creates a user with a known password */
  createUser: (opts?: {
    admin?: boolean;
    password?: string;
    username?: string;
    email?: string;
  }) => Promise<User>;
  /**
   * A client already signed in as `user` through a server-side session made directly (no HTTP
   * sign-in, so the sign-in throttles of the file are left alone).
   */
  signedIn: (user: User) => Promise<TestClient>;
  close: () => Promise<void>;
}

let seq = 0;

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The configuration that lets clients pick their own allocations, from ports `first`–`last`. */
export const clientAllocationsEnv = ([first, last]: readonly number[]): Record<string, string> => ({
  PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED: 'true',
  PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START: String(first),
  PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END: String(last),
});

/**
 * A real panel on a fresh database, listening on a loopback port, so tests go through real HTTP
 * (cookies, client IPs, headers) exactly as clients do. `env` overrides configuration variables.
 */
export async function startTestPanel(
  env: Record<string, string> = {},
  opts: {
    host?: string;
    log?: Logger;
    /** a built web app to serve; none by default */
    webDist?: string;
  } = {},
): Promise<TestPanel> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talon-data-'));
  const host = opts.host ?? '127.0.0.1';
  // The port is chosen first so that APP_URL (mailed links) names the real address.
  const port = await freePort(host);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const ctx = await bootstrap({
    log: opts.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'silent', APP_URL: url, ...env },
  });
  const app = await buildApp(ctx, { webDist: opts.webDist ?? path.join(dataDir, 'no-web-build') });
  await app.listen({ port, host });
  return {
    url,
    ctx,
    app,
    createUser: async (opts = {}) => {
      seq += 1;
      const username = opts.username ?? `user${seq}${Math.random().toString(36).slice(2, 6)}`;
      const { user } = await ctx.services.users.create({
        username,
        email: opts.email ?? `${username}@example.com`,
        password: opts.password ?? 'correct horse battery',
        root_admin: opts.admin ?? false,
      });
      return user;
    },
    signedIn: async (user) => {
      const session = await ctx.services.sessions.create(user.id, { ip: host });
      const client = new TestClient(url);
      client.cookies.set(SESSION_COOKIE, session.token);
      client.cookies.set(XSRF_COOKIE, session.csrfToken);
      return client;
    },
    close: async () => {
      await app.close();
      await ctx.db.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
