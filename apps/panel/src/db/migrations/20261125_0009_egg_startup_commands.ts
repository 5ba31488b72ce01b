import type { PanelMigration } from './schema-helpers.ts';

/**
 * What Pelican's egg formats carry beyond the incumbent's (issue 17): every named start-up command
 * of a PLCN_v3 egg (JSON array of { name, command }, the first the default; NULL for eggs imported
 * before, whose one command is `startup`), the egg's tags (JSON array), and each variable's display
 * position (`sort`, NULL when the file gave none).
 */
export const eggStartupCommands: PanelMigration = {
  async up({ db }) {
    await db.schema.alterTable('eggs').addColumn('startup_commands', 'text').execute();
    await db.schema.alterTable('eggs').addColumn('tags', 'text').execute();
    await db.schema.alterTable('egg_variables').addColumn('sort', 'integer').execute();
  },
};
