import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

const COUNTED = ['users', 'servers', 'nodes', 'locations', 'nests', 'eggs', 'database_hosts'] as const;
export type Counted = (typeof COUNTED)[number];

/** The counts of the admin overview. */
export class OverviewRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async counts(): Promise<Record<Counted, number>> {
    const counts = await Promise.all(COUNTED.map((table) => this.count(table)));
    return Object.fromEntries(COUNTED.map((table, i) => [table, counts[i]])) as Record<Counted, number>;
  }

  async nonAdminUsers(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('root_admin', '=', 0)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private async count(table: Counted): Promise<number> {
    const row = await this.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
