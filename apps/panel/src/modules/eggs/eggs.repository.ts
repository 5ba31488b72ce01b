import type { Insertable, Kysely, Updateable } from 'kysely';
import type {
  Database,
  Egg,
  EggVariable,
  EggVariablesTable,
  EggsTable,
  Nest,
  NestsTable,
} from '../../db/types.ts';
import { page, type ListParams } from '../application/listing.ts';

export class EggsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findNestByName(name: string): Promise<Nest | undefined> {
    return this.db.selectFrom('nests').selectAll().where('name', '=', name).executeTakeFirst();
  }

  async listNests(offset: number, limit: number): Promise<{ rows: Nest[]; total: number }> {
    const total = await this.db
      .selectFrom('nests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    const rows = await this.db
      .selectFrom('nests')
      .selectAll()
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute();
    return { rows, total: Number(total?.n ?? 0) };
  }

  /** The application list (search, sort: listing.ts). */
  pageNests(params: ListParams): Promise<{ rows: Nest[]; total: number }> {
    return page(this.db.selectFrom('nests').selectAll(), params, 'nests.id');
  }

  async updateNest(id: number, changes: Updateable<NestsTable>): Promise<void> {
    await this.db.updateTable('nests').set(changes).where('id', '=', id).execute();
  }

  async deleteNest(id: number): Promise<void> {
    await this.db.deleteFrom('nests').where('id', '=', id).execute();
  }

  async nestHasEggs(nestId: number): Promise<boolean> {
    return (
      (await this.db.selectFrom('eggs').select('id').where('nest_id', '=', nestId).executeTakeFirst()) !==
      undefined
    );
  }

  async updateEgg(id: number, changes: Updateable<EggsTable>): Promise<void> {
    await this.db.updateTable('eggs').set(changes).where('id', '=', id).execute();
  }

  /** Deletes an egg; its variables (and the servers' values of them) go with it (foreign keys cascade). */
  async deleteEgg(id: number): Promise<void> {
    await this.db.deleteFrom('eggs').where('id', '=', id).execute();
  }

  async eggHasServers(eggId: number): Promise<boolean> {
    return (
      (await this.db.selectFrom('servers').select('id').where('egg_id', '=', eggId).executeTakeFirst()) !==
      undefined
    );
  }

  /** Eggs that copy their configuration or install script from this one. */
  async eggHasChildren(eggId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('eggs')
      .select('id')
      .where((eb) => eb.or([eb('config_from', '=', eggId), eb('copy_script_from', '=', eggId)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  findVariable(eggId: number, id: number): Promise<EggVariable | undefined> {
    return this.db
      .selectFrom('egg_variables')
      .selectAll()
      .where('egg_id', '=', eggId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  insertVariable(row: Insertable<EggVariablesTable>): Promise<EggVariable> {
    return this.db.insertInto('egg_variables').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async updateVariable(id: number, changes: Updateable<EggVariablesTable>): Promise<void> {
    await this.db.updateTable('egg_variables').set(changes).where('id', '=', id).execute();
  }

  async deleteVariable(id: number): Promise<void> {
    await this.db.deleteFrom('egg_variables').where('id', '=', id).execute();
  }

  eggsOfNests(nestIds: number[]): Promise<Egg[]> {
    if (nestIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('eggs').selectAll().where('nest_id', 'in', nestIds).orderBy('id').execute();
  }

  findNest(id: number): Promise<Nest | undefined> {
    return this.db.selectFrom('nests').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insertNest(row: Omit<Nest, 'id'>): Promise<Nest> {
    return this.db.insertInto('nests').values(row).returningAll().executeTakeFirstOrThrow();
  }

  findEgg(id: number): Promise<Egg | undefined> {
    return this.db.selectFrom('eggs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findEggByName(nestId: number, name: string): Promise<Egg | undefined> {
    return this.db
      .selectFrom('eggs')
      .selectAll()
      .where('nest_id', '=', nestId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** An egg by the uuid its file carried (Pelican eggs keep theirs across panels). */
  findEggByUuid(uuid: string): Promise<Egg | undefined> {
    return this.db.selectFrom('eggs').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  findEggs(ids: number[]): Promise<Egg[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('eggs').selectAll().where('id', 'in', ids).orderBy('id').execute();
  }

  findNests(ids: number[]): Promise<Nest[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('nests').selectAll().where('id', 'in', ids).orderBy('id').execute();
  }

  /** The variables of several eggs, in id order. */
  variablesOfEggs(eggIds: number[]): Promise<EggVariable[]> {
    if (eggIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('egg_variables')
      .selectAll()
      .where('egg_id', 'in', eggIds)
      .orderBy('id')
      .execute();
  }

  variables(eggId: number): Promise<EggVariable[]> {
    return this.db
      .selectFrom('egg_variables')
      .selectAll()
      .where('egg_id', '=', eggId)
      .orderBy('id')
      .execute();
  }

  /** Inserts an egg with its variables, or replaces the variables of `replaceId`, in one transaction. */
  async save(
    egg: Insertable<EggsTable>,
    variables: Omit<Insertable<EggVariablesTable>, 'egg_id'>[],
    replaceId?: number,
  ): Promise<Egg> {
    return this.db.transaction().execute(async (trx) => {
      let saved: Egg;
      if (replaceId !== undefined) {
        const { created_at: _created, uuid: _uuid, ...changes } = egg;
        saved = await trx
          .updateTable('eggs')
          .set(changes)
          .where('id', '=', replaceId)
          .returningAll()
          .executeTakeFirstOrThrow();
      } else {
        saved = await trx.insertInto('eggs').values(egg).returningAll().executeTakeFirstOrThrow();
      }
      const existing = await trx
        .selectFrom('egg_variables')
        .selectAll()
        .where('egg_id', '=', saved.id)
        .execute();
      const byEnv = new Map(existing.map((v) => [v.env_variable, v]));
      for (const v of variables) {
        const old = byEnv.get(v.env_variable);
        if (old) {
          // Keep the row (and so every server's value for it); update what the file says.
          await trx.updateTable('egg_variables').set(v).where('id', '=', old.id).execute();
          byEnv.delete(v.env_variable);
        } else {
          await trx
            .insertInto('egg_variables')
            .values({ ...v, egg_id: saved.id })
            .execute();
        }
      }
      for (const gone of byEnv.values())
        await trx.deleteFrom('egg_variables').where('id', '=', gone.id).execute();
      return saved;
    });
  }
}
