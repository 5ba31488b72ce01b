import type { PanelMigration } from './schema-helpers.ts';

/**
 * Folder-scoped file access (our extension): a subuser may be limited to a list of folders.
 * `file_paths` is a JSON text array of absolute directory paths ("/plugins"); NULL means the
 * subuser's file permissions apply to the whole server, as for every subuser before this column.
 */
export const subuserFilePaths: PanelMigration = {
  async up({ db }) {
    await db.schema.alterTable('subusers').addColumn('file_paths', 'text').execute();
  },
};
