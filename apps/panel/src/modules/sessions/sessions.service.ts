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
}

/** Server-side sessions: rotation on sign-in, sliding expiry, sign-out elsewhere. */
export class SessionsService {
  constructor(
    private readonly repo: SessionsRepository,
    private readonly lifetimeMinutes: number,
  ) {}

  private expiry(now: number): string {
    return new Date(now + this.lifetimeMinutes * 60_000).toISOString();
  }

  async load(token: string): Promise<SessionState | null> {
    if (!/^[A-Za-z0-9]{40}$/u.test(token)) return null;
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
    if (old) await this.repo.delete(old.id);
    return this.create(userId, meta);
  }

  async saveData(session: SessionState): Promise<void> {
    await this.repo.update(session.id, { data: JSON.stringify(session.data) });
  }

  /** Slides the expiry; written at most once a minute per session to keep reads cheap. */
  async touch(session: SessionState): Promise<void> {
    const now = Date.now();
    if (now - session.lastActivity < 60_000) return;
    session.lastActivity = now;
    await this.repo.update(session.id, {
      last_activity: new Date(now).toISOString(),
      expires_at: this.expiry(now),
    });
  }

  destroy(session: SessionState): Promise<void> {
    return this.repo.delete(session.id);
  }

  endOtherSessions(userId: number, keep: SessionState | null): Promise<void> {
    return this.repo.deleteOthersOfUser(userId, keep?.id ?? null);
  }
}
