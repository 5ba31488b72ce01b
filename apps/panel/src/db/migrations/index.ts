import { accounts } from './20261122_0001_accounts.ts';
import { servers } from './20261122_0002_servers.ts';
import { subuserFilePaths } from './20261125_0003_subuser_file_paths.ts';
import { serverListGeneration } from './20261125_0004_server_list_generation.ts';
import { backups } from './20261125_0005_backups.ts';
import { databases } from './20261125_0006_databases.ts';
import { eggStartupCommands } from './20261125_0009_egg_startup_commands.ts';
import { schedules } from './20261125_0010_schedules.ts';
import { nodeSetupTokens } from './20261127_0013_node_setup_tokens.ts';
import { taskSavedBy } from './20261201_0014_task_saved_by.ts';
import type { PanelMigration } from './schema-helpers.ts';

/** Every migration, by name. Names sort in the order they run; a landed migration is never edited. */
export const MIGRATIONS: Record<string, PanelMigration> = {
  '20261122_0001_accounts': accounts,
  '20261122_0002_servers': servers,
  '20261125_0003_subuser_file_paths': subuserFilePaths,
  '20261125_0004_server_list_generation': serverListGeneration,
  '20261125_0005_backups': backups,
  '20261125_0006_databases': databases,
  '20261125_0009_egg_startup_commands': eggStartupCommands,
  '20261125_0010_schedules': schedules,
  '20261127_0013_node_setup_tokens': nodeSetupTokens,
  '20261201_0014_task_saved_by': taskSavedBy,
};
