import type { PanelMigration } from './schema-helpers.ts';
import { notNull, withId, zero } from './schema-helpers.ts';

/**
 * Schedules and their tasks (reference §3.1 `server_schedule`, `schedule_task`), with what the runner
 * needs to run each due schedule exactly once across several panels: the run is claimed by writing
 * a `claim_token` and a `lease_until` in one conditional UPDATE; `run_position` is the sequence id of
 * the last task the current run started (so a run taken over after its panel died carries on after
 * it instead of starting again); `run_now` is a Run Now request any panel's runner picks up.
 */
export const schedules: PanelMigration = {
  async up({ db, dialect }) {
    await withId(db.schema.createTable('schedules'), dialect)
      .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
      .addColumn('name', 'varchar(191)', notNull)
      .addColumn('cron_minute', 'varchar(191)', notNull)
      .addColumn('cron_hour', 'varchar(191)', notNull)
      .addColumn('cron_day_of_month', 'varchar(191)', notNull)
      .addColumn('cron_month', 'varchar(191)', notNull)
      .addColumn('cron_day_of_week', 'varchar(191)', notNull)
      .addColumn('is_active', 'integer', zero)
      .addColumn('is_processing', 'integer', zero)
      .addColumn('only_when_online', 'integer', zero)
      .addColumn('last_run_at', 'varchar(32)')
      .addColumn('next_run_at', 'varchar(32)')
      .addColumn('run_now', 'integer', zero)
      .addColumn('claim_token', 'varchar(36)')
      .addColumn('lease_until', 'varchar(32)')
      .addColumn('run_position', 'integer', zero)
      .addColumn('created_at', 'varchar(32)', notNull)
      .addColumn('updated_at', 'varchar(32)', notNull)
      .execute();
    await db.schema.createIndex('schedules_server').on('schedules').column('server_id').execute();
    // The runner's claim reads these two on every tick.
    await db.schema
      .createIndex('schedules_next_run')
      .on('schedules')
      .columns(['is_active', 'next_run_at'])
      .execute();
    await db.schema.createIndex('schedules_lease').on('schedules').column('lease_until').execute();
    await withId(db.schema.createTable('tasks'), dialect)
      .addColumn('schedule_id', 'integer', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
      .addColumn('sequence_id', 'integer', notNull)
      .addColumn('action', 'varchar(16)', notNull)
      .addColumn('payload', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('time_offset', 'integer', zero)
      .addColumn('continue_on_failure', 'integer', zero)
      .addColumn('created_at', 'varchar(32)', notNull)
      .addColumn('updated_at', 'varchar(32)', notNull)
      .execute();
    await db.schema
      .createIndex('tasks_schedule_sequence')
      .on('tasks')
      .columns(['schedule_id', 'sequence_id'])
      .execute();
  },
};
