import type { Kysely, KyselyPlugin } from 'kysely';

/**
 * The same database seen through a plugin that counts the statements run on it, for tests that pin
 * how many queries a code path makes. Nothing is changed: every query still runs on the real database.
 */
export function countingQueries<DB>(db: Kysely<DB>): { db: Kysely<DB>; count: () => number } {
  let n = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      n += 1;
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  return { db: db.withPlugin(plugin), count: () => n };
}
