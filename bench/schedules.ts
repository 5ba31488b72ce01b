// The schedule runner's cost: 1 000 schedules on PostgreSQL (BENCH_POSTGRES_URL, default the local
// server). Prints how long one panel's runner takes to claim and run all of them when they fall due
// at once, then the panel's CPU use while every schedule waits for its next run (goal < 2 %).
import { ScheduleRunner } from '../apps/panel/src/jobs/schedule-runner.ts';
import { nodeAndEgg, serverRow } from '../apps/panel/src/test-support/fixtures.ts';
import { startTestPanel } from '../apps/panel/src/test-support/panel.ts';

const COUNT = 1000;
const IDLE_SECONDS = Number(process.env.BENCH_DURATION ?? 30);
process.env.TEST_DB ??= 'postgres';
process.env.TEST_POSTGRES_URL ??=
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

const panel = await startTestPanel();
try {
  const { node, egg } = await nodeAndEgg(panel.ctx, [47000, 47010]);
  const server = await serverRow(panel.ctx, node, egg, (await panel.createUser()).id);
  const now = new Date().toISOString();
  const db = panel.ctx.db.db;
  const ids = (
    await db
      .insertInto('schedules')
      .values(
        Array.from({ length: COUNT }, (_, i) => ({
          server_id: server.id,
          name: `bench ${i}`,
          cron_minute: '0',
          cron_hour: '0',
          cron_day_of_month: '1',
          cron_month: '1',
          cron_day_of_week: '*',
          is_active: 1,
          is_processing: 0,
          only_when_online: 0,
          last_run_at: null,
          next_run_at: new Date(Date.now() - 1000).toISOString(),
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute()
  ).map((r) => r.id);
  // One task each that fails in the panel (an unknown power signal): the run's database work
  // without a daemon.
  await db
    .insertInto('tasks')
    .values(
      ids.map((id) => ({
        schedule_id: id,
        sequence_id: 1,
        action: 'power',
        payload: 'noop',
        time_offset: 0,
        continue_on_failure: 0,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  const tickSeconds = panel.ctx.config.schedules.tickSeconds;
  const runner = new ScheduleRunner(panel.ctx, { tickMs: tickSeconds * 1000, leaseMs: 60_000 });
  const started = performance.now();
  let claimed = 0;
  while (claimed < COUNT) {
    claimed += await runner.tick();
    await runner.idle();
  }
  const burstMs = performance.now() - started;
  runner.start();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  await runner.stop();
  const pending = await db
    .selectFrom('schedules')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('last_run_at', 'is', null)
    .executeTakeFirstOrThrow();
  const percent = ((cpu.user + cpu.system) / 1000 / wallMs) * 100;
  console.log(`schedules: ${COUNT} schedules on ${panel.ctx.db.dialect}, tick ${tickSeconds} s`);
  console.log(
    `  all due at once: claimed and run in ${burstMs.toFixed(0)} ms (${Number(pending.n)} not run)`,
  );
  console.log(`  idle panel CPU over ${IDLE_SECONDS} s: ${percent.toFixed(2)} % (goal < 2 %)`);
} finally {
  await panel.close();
}
