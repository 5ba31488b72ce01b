import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../db/types.ts';
import { nodeAndEgg, serverRow } from '../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';
import { ScheduleClaims } from './schedule-claims.ts';

// The runner's claims on a real database shared by two panels (no daemon: nothing is run here).
let panel: TestPanel;
let other: TestPanel;
let server: Server;

const at = (offsetMs: number) => new Date(Date.now() + offsetMs);

async function dueSchedules(n: number, values: { next_run_at?: string; is_active?: number } = {}) {
  const now = new Date().toISOString();
  const rows = await panel.ctx.db.db
    .insertInto('schedules')
    .values(
      Array.from({ length: n }, (_, i) => ({
        server_id: server.id,
        name: `due ${i}`,
        cron_minute: '*',
        cron_hour: '*',
        cron_day_of_month: '*',
        cron_month: '*',
        cron_day_of_week: '*',
        is_active: values.is_active ?? 1,
        is_processing: 0,
        only_when_online: 0,
        last_run_at: null,
        next_run_at: values.next_run_at ?? new Date(Date.now() - 60_000).toISOString(),
        created_at: now,
        updated_at: now,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

const clear = () => panel.ctx.db.db.deleteFrom('schedules').execute();

beforeAll(async () => {
  panel = await startTestPanel();
  other = await startTestPanel({ DATABASE_URL: panel.ctx.config.databaseUrl });
  const { node, egg } = await nodeAndEgg(panel.ctx, [46450, 46460]);
  server = await serverRow(panel.ctx, node, egg, (await panel.createUser()).id);
});
afterAll(async () => {
  await other?.close();
  await panel?.close();
});

describe('schedule claims', () => {
  it('gives each due run to exactly one of many concurrent claimers on two panels', async () => {
    await clear();
    const ids = await dueSchedules(40);
    await dueSchedules(3, { is_active: 0 });
    await dueSchedules(3, { next_run_at: at(3600_000).toISOString() });
    const claimers = [panel, other, panel, other, panel, other].map((p) => ({
      claims: new ScheduleClaims(p.ctx.db.db),
      token: randomUUID(),
    }));
    const got = await Promise.all(
      claimers.map(async ({ claims, token }) => {
        const mine: number[] = [];
        // Small batches, several rounds: the claimers interleave.
        for (let round = 0; round < 8; round++) {
          for (const s of await claims.claimDue(token, new Date(), at(60_000), 5)) {
            expect(s.claim_token).toBe(token);
            expect(s.is_processing).toBe(1);
            mine.push(s.id);
          }
        }
        return mine;
      }),
    );
    const all = got.flat();
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort((a, b) => a - b)).toEqual(ids);
  });

  it('takes over a run whose lease expired, not one whose lease holds; a stale claimer cannot advance', async () => {
    await clear();
    const [id] = await dueSchedules(1);
    const first = new ScheduleClaims(panel.ctx.db.db);
    const second = new ScheduleClaims(other.ctx.db.db);
    const [a, b] = [randomUUID(), randomUUID()];
    expect(await first.claimDue(a, new Date(), at(60_000), 10)).toHaveLength(1);
    expect(await first.advance(id!, a, 1)).toBe(true);
    expect(await second.claimDue(b, new Date(), at(60_000), 10)).toEqual([]);
    // Later than the lease: the run is carried on after its position by the second claimer.
    const taken = await second.claimDue(b, at(61_000), at(120_000), 10);
    expect(taken.map((s) => [s.id, s.run_position])).toEqual([[id, 1]]);
    expect(await first.advance(id!, a, 2)).toBe(false);
    await first.finish(id!, a, new Date(), true);
    const row = await panel.ctx.repositories.schedules.byId(id!);
    expect(row).toMatchObject({ claim_token: b, run_position: 1, last_run_at: null });
    await second.finish(id!, b, new Date(), true);
    expect(await panel.ctx.repositories.schedules.byId(id!)).toMatchObject({
      claim_token: null,
      is_processing: 0,
      run_position: 0,
    });
  });

  it('a stopping runner hands its runs over at once; a Run Now request is claimed once', async () => {
    await clear();
    const [id] = await dueSchedules(1, { is_active: 0, next_run_at: at(3600_000).toISOString() });
    const first = new ScheduleClaims(panel.ctx.db.db);
    const second = new ScheduleClaims(other.ctx.db.db);
    expect(await second.claimDue(randomUUID(), new Date(), at(60_000), 10)).toEqual([]);
    await panel.ctx.repositories.schedules.requestRun(
      id!,
      at(3600_000).toISOString(),
      new Date().toISOString(),
    );
    const a = randomUUID();
    const results = await Promise.all([
      first.claimDue(a, new Date(), at(60_000), 10),
      second.claimDue(randomUUID(), new Date(), at(60_000), 10),
    ]);
    const claimed = results.flat();
    expect(claimed.map((s) => s.id)).toEqual([id]);
    const holder = claimed[0]!.claim_token!;
    const holderClaims = holder === a ? first : second;
    await holderClaims.abandon(holder, new Date());
    expect((await second.claimDue(randomUUID(), new Date(), at(60_000), 10)).map((s) => s.id)).toEqual([id]);
  });
});
