import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';

export interface Hit {
  /** hits counted in the window, this one included */
  hits: number;
  /** seconds until the window ends */
  retryAfter: number;
}

export interface ThrottleStore {
  /** Counts one hit for `key` in a window of `windowMs` and reports the total. */
  hit(key: string, windowMs: number): Promise<Hit>;
  peek(key: string): Promise<Hit>;
  clear(key: string): Promise<void>;
}

/**
 * Fixed windows kept in memory: for the general API limits, where per-instance counting is an
 * acceptable approximation and a database write per request is not.
 */
export class MemoryThrottle implements ThrottleStore {
  private readonly buckets = new Map<string, { hits: number; resetAt: number }>();

  async hit(key: string, windowMs: number): Promise<Hit> {
    return this.hitNow(key, windowMs);
  }

  /** `hit` without a promise, for the per-request API limit. */
  hitNow(key: string, windowMs: number): Hit {
    const now = Date.now();
    let b = this.buckets.get(key);
    if (!b || b.resetAt <= now) {
      if (this.buckets.size > 50_000) this.sweep(now);
      b = { hits: 0, resetAt: now + windowMs };
      this.buckets.set(key, b);
    }
    b.hits++;
    return { hits: b.hits, retryAfter: Math.ceil((b.resetAt - now) / 1000) };
  }

  async peek(key: string): Promise<Hit> {
    const now = Date.now();
    const b = this.buckets.get(key);
    if (!b || b.resetAt <= now) return { hits: 0, retryAfter: 0 };
    return { hits: b.hits, retryAfter: Math.ceil((b.resetAt - now) / 1000) };
  }

  async clear(key: string): Promise<void> {
    this.buckets.delete(key);
  }

  private sweep(now: number) {
    for (const [k, b] of this.buckets) if (b.resetAt <= now) this.buckets.delete(k);
  }
}

/**
 * Fixed windows kept in the database, so every panel behind a load balancer shares the count: used
 * for sign-in, second-factor and password-reset throttling.
 */
export class DbThrottle implements ThrottleStore {
  constructor(private readonly db: Kysely<Database>) {}

  async hit(key: string, windowMs: number): Promise<Hit> {
    const now = Date.now();
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('rate_limits').selectAll().where('key', '=', key).executeTakeFirst();
      if (!row || Number(row.reset_at) <= now) {
        const resetAt = now + windowMs;
        await trx
          .insertInto('rate_limits')
          .values({ key, hits: 1, reset_at: resetAt })
          .onConflict((oc) => oc.column('key').doUpdateSet({ hits: 1, reset_at: resetAt }))
          .execute();
        return { hits: 1, retryAfter: Math.ceil(windowMs / 1000) };
      }
      await trx
        .updateTable('rate_limits')
        .set((eb) => ({ hits: eb('hits', '+', 1) }))
        .where('key', '=', key)
        .execute();
      return { hits: row.hits + 1, retryAfter: Math.ceil((Number(row.reset_at) - now) / 1000) };
    });
  }

  async peek(key: string): Promise<Hit> {
    const row = await this.db.selectFrom('rate_limits').selectAll().where('key', '=', key).executeTakeFirst();
    const now = Date.now();
    if (!row || Number(row.reset_at) <= now) return { hits: 0, retryAfter: 0 };
    return { hits: row.hits, retryAfter: Math.ceil((Number(row.reset_at) - now) / 1000) };
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }
}
