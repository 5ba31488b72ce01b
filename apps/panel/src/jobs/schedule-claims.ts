import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database, Schedule } from '../db/types.ts';

/**
 * The runner's side of the `schedules` table: claiming due runs and keeping the claim. Every write
 * of a run is conditional on the runner's `claim_token`, so a runner that lost its claim (its lease
 * ran out and another runner took the run over) changes nothing and stops.
 */
export class ScheduleClaims {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Claims up to `limit` runs in one UPDATE: schedules not claimed that are due (active and
   * `next_run_at` reached) or asked to run now, and claimed ones whose lease ran out (a runner
   * died: the run is carried on after its `run_position`). The condition is repeated outside the
   * sub-select: PostgreSQL re-checks it on a row another panel changed meanwhile, so of two panels
   * claiming at once each row goes to one of them; SQLite runs one writer at a time.
   */
  claimDue(token: string, now: Date, leaseUntil: Date, limit: number): Promise<Schedule[]> {
    const at = now.toISOString();
    const claimable = (eb: ExpressionBuilder<Database, 'schedules'>) =>
      eb.or([
        eb.and([
          eb('claim_token', 'is', null),
          eb.or([eb('run_now', '=', 1), eb.and([eb('is_active', '=', 1), eb('next_run_at', '<=', at)])]),
        ]),
        eb.and([eb('claim_token', 'is not', null), eb('lease_until', '<', at)]),
      ]);
    return this.db
      .updateTable('schedules')
      .set({ claim_token: token, lease_until: leaseUntil.toISOString(), is_processing: 1, run_now: 0 })
      .where((eb) =>
        eb.and([
          eb('id', 'in', eb.selectFrom('schedules').select('id').where(claimable).orderBy('id').limit(limit)),
          claimable(eb),
        ]),
      )
      .returningAll()
      .execute();
  }

  /** Extends the lease of every run `token` holds. */
  async renew(token: string, leaseUntil: Date): Promise<void> {
    await this.db
      .updateTable('schedules')
      .set({ lease_until: leaseUntil.toISOString() })
      .where('claim_token', '=', token)
      .execute();
  }

  /** Moves `next_run_at` on, when the claim is still ours. */
  async setNextRun(id: number, token: string, next: string | null): Promise<void> {
    await this.db
      .updateTable('schedules')
      .set({ next_run_at: next })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  /**
   * Records that the task at `position` starts, before it is sent: false when the claim is no
   * longer ours (the task must not run). A run carried on elsewhere starts after this position, so
   * no task is sent twice.
   */
  async advance(id: number, token: string, position: number): Promise<boolean> {
    const res = await this.db
      .updateTable('schedules')
      .set({ run_position: position })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Ends a run: the claim is released; `last_run_at` is set when tasks ran. */
  async finish(id: number, token: string, at: Date, ran: boolean): Promise<void> {
    await this.db
      .updateTable('schedules')
      .set({
        claim_token: null,
        lease_until: null,
        is_processing: 0,
        run_position: 0,
        ...(ran ? { last_run_at: at.toISOString() } : {}),
      })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  /** Lets another runner take the runs `token` holds over at once (a panel stopping mid-run). */
  async abandon(token: string, at: Date): Promise<void> {
    await this.db
      .updateTable('schedules')
      .set({ lease_until: new Date(at.getTime() - 1).toISOString() })
      .where('claim_token', '=', token)
      .execute();
  }
}
