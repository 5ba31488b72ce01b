import type { PanelMigration } from './schema-helpers.ts';

/**
 * Whose permissions a scheduled task runs with (CVE-2026-86177): the user who last saved it. The
 * runner checks that they still hold the permission of the task's action (owners and root admins
 * hold all). NULL for tasks saved before this column: they run as they did before. No foreign key:
 * a deleted user's id matches no user, so their tasks are skipped.
 */
export const taskSavedBy: PanelMigration = {
  async up({ db }) {
    await db.schema.alterTable('tasks').addColumn('saved_by', 'integer').execute();
  },
};
