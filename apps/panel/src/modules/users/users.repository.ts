import type { Kysely } from 'kysely';
import type { Database, NewUser, User, UserUpdate } from '../../db/types.ts';

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findByUuid(uuid: string): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  findById(id: number): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Usernames are stored lower-case; emails compared lower-case. */
  findByLogin(login: string): Promise<User | undefined> {
    const value = login.toLowerCase();
    const column = value.includes('@') ? 'email' : 'username';
    return this.db.selectFrom('users').selectAll().where(column, '=', value).executeTakeFirst();
  }

  findByEmail(email: string): Promise<User | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
  }

  async emailTaken(email: string, exceptId?: number): Promise<boolean> {
    let q = this.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase());
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async usernameTaken(username: string, exceptId?: number): Promise<boolean> {
    let q = this.db.selectFrom('users').select('id').where('username', '=', username.toLowerCase());
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insert(user: NewUser): Promise<User> {
    return this.db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, values: UserUpdate): Promise<void> {
    await this.db.updateTable('users').set(values).where('id', '=', id).execute();
  }
}
