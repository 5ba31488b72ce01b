import { createHmac } from 'node:crypto';
import { randomAlnum, sha256Hex } from '../../lib/crypto.ts';
import type { SessionsRepository } from './sessions.repository.ts';

/** Short-lived state kept with a session (never sent to the browser). */
export interface SessionData {
  /** a sign-in waiting for its second factor */
  pendingLogin?: { userId: number; tokenHash: string; expiresAt: number };
}

/** A session as the request sees it. `token` is the cookie value; the database keeps only its hash. */
export interface SessionState {
  id: string;
  token: string;
  userId: number | null;
  csrfToken: string;
  data: SessionData;
  lastActivity: number;
  /**
   * false for a guest that has only its cookie: no row until there is something to keep (a sign-in
   * waiting for its second factor), so anonymous visits cannot fill the table.
   */
  stored: boolean;
}

const TOKEN = /^[A-Za-z0-9]{40}$/u;

/** Server-side sessions: rotation on sign-in, sliding expiry, sign-out elsewhere. */
export class SessionsService {
  constructor(
    private readonly repo: SessionsRepository,
    private readonly lifetimeMinutes: number,
    /** signs guest XSRF tokens */
    private readonly key: Buffer,
  ) {}

  /**
   * A guest's XSRF token is derived from its cookie with the panel's key: nothing to store, and a
   * token only matches the cookie it was made for (a planted XSRF cookie of another guest fails).
   */
  private guestCsrf(token: string): string {
    return createHmac('sha256', this.key).update(`guest-xsrf:${token}`).digest('hex').slice(0, 40);
  }

  /** A guest session: the cookie's token when it is well-formed, else a new one. Writes nothing. */
  guest(token?: string): SessionState {
    const t = token !== undefined && TOKEN.test(token) ? token : randomAlnum(40);
    return {
      id: sha256Hex(t),
      token: t,
      userId: null,
      csrfToken: this.guestCsrf(t),
      data: {},
      lastActivity: Date.now(),
      stored: false,
    };
  }

  private expiry(now: number): string {
    return new Date(now + this.lifetimeMinutes * 60_000).toISOString();
  }

  /** The stored (signed-in, or waiting for a second factor) session of a cookie token. */
  async load(token: string): Promise<SessionState | null> {
    if (!TOKEN.test(token)) return null;
    const row = await this.repo.find(sha256Hex(token));
    if (!row || row.expires_at < new Date().toISOString()) return null;
    let data: SessionData = {};
    try {
      data = JSON.parse(row.data) as SessionData;
    } catch {
      data = {};
    }
    return {
      id: row.id,
      token,
      userId: row.user_id,
      csrfToken: row.csrf_token,
      data,
      lastActivity: Date.parse(row.last_activity),
      stored: true,
    };
  }

  async create(userId: number | null, meta: { ip: string; userAgent?: string }): Promise<SessionState> {
    const token = randomAlnum(40);
    const now = Date.now();
    const state: SessionState = {
      id: sha256Hex(token),
      token,
      userId,
      csrfToken: randomAlnum(40),
      data: {},
      lastActivity: now,
      stored: true,
    };
    await this.repo.insert({
      id: state.id,
      user_id: userId,
      csrf_token: state.csrfToken,
      data: '{}',
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 500) ?? null,
      last_activity: new Date(now).toISOString(),
      expires_at: this.expiry(now),
      created_at: new Date(now).toISOString(),
    });
    return state;
  }

  /** New id and CSRF token for a session whose privilege changes (sign-in); the old id dies. */
  async rotate(old: SessionState | null, userId: number | null, meta: { ip: string; userAgent?: string }) {
    if (old?.stored) await this.repo.delete(old.id);
    return this.create(userId, meta);
  }

  /** Keeps the session's data; a guest gets its row now, under the token its cookie already has. */
  async saveData(session: SessionState, meta: { ip: string; userAgent?: string }): Promise<void> {
    if (session.stored) {
      await this.repo.update(session.id, { data: JSON.stringify(session.data) });
      return;
    }
    const now = Date.now();
    await this.repo.put({
      id: session.id,
      user_id: null,
      csrf_token: session.csrfToken,
      data: JSON.stringify(session.data),
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 500) ?? null,
      last_activity: new Date(now).toISOString(),
      expires_at: this.expiry(now),
      created_at: new Date(now).toISOString(),
    });
    session.stored = true;
    session.lastActivity = now;
  }

  /** Slides the expiry; written at most once a minute per session to keep reads cheap. */
  async touch(session: SessionState): Promise<void> {
    const now = Date.now();
    if (!session.stored || now - session.lastActivity < 60_000) return;
    session.lastActivity = now;
    await this.repo.update(session.id, {
      last_activity: new Date(now).toISOString(),
      expires_at: this.expiry(now),
    });
  }

  async destroy(session: SessionState): Promise<void> {
    if (session.stored) await this.repo.delete(session.id);
  }

  endOtherSessions(userId: number, keep: SessionState | null): Promise<void> {
    return this.repo.deleteOthersOfUser(userId, keep?.id ?? null);
  }
}
