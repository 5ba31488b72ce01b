import { isIPv6 } from 'node:net';
import { sql, type Kysely } from 'kysely';
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
  /** Takes back one hit counted in advance for an attempt that turned out not to be a failure. */
  undo(key: string): Promise<void>;
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

  async undo(key: string): Promise<void> {
    const b = this.buckets.get(key);
    if (b && b.hits > 0) b.hits--;
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

  /**
   * One statement that counts and reads back, so parallel requests each see their own total (a read
   * then a write let 50 parallel sign-ins all see "4 so far"). An ended window starts over at 1.
   */
  async hit(key: string, windowMs: number): Promise<Hit> {
    const now = Date.now();
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, hits: 1, reset_at: now + windowMs })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          hits: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.hits + 1 end`,
          reset_at: sql<number>`case when rate_limits.reset_at <= ${now} then excluded.reset_at else rate_limits.reset_at end`,
        }),
      )
      .returning(['hits', 'reset_at'])
      .executeTakeFirstOrThrow();
    return { hits: Number(row.hits), retryAfter: Math.ceil((Number(row.reset_at) - now) / 1000) };
  }

  async undo(key: string): Promise<void> {
    await this.db
      .updateTable('rate_limits')
      .set((eb) => ({ hits: eb('hits', '-', 1) }))
      .where('key', '=', key)
      .where('hits', '>', 0)
      .execute();
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

/**
 * The source a limiter counts for an address: an IPv4 address as it is, an IPv6 address by its /64
 * (one host is usually given a whole /64, so counting single IPv6 addresses would let it rotate
 * through them). IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
export function limiterSource(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/iu.exec(ip);
  if (mapped) return mapped[1]!;
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
