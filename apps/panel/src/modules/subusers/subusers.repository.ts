import type { Kysely } from 'kysely';
import type { Database, Subuser, User } from '../../db/types.ts';

/** A subuser link with its account, as the Users tab shows it. */
export interface SubuserWithUser {
  subuser: Subuser;
  user: User;
}

export class SubusersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The server's subusers with their accounts, in the order they were added: one query, however
   * many there are (the list must not cost a query per subuser).
   */
  listForServer(serverId: number): Promise<SubuserWithUser[]> {
    return this.listForServers([serverId]);
  }

  /** The subusers of several servers with their accounts, in one query, in subuser id order. */
  async listForServers(serverIds: readonly number[]): Promise<SubuserWithUser[]> {
    if (serverIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('subusers')
      .innerJoin('users', 'users.id', 'subusers.user_id')
      .selectAll('users')
      .select([
        'subusers.id as subuser_id',
        'subusers.server_id as subuser_server_id',
        'subusers.permissions as subuser_permissions',
        'subusers.file_paths as subuser_file_paths',
        'subusers.created_at as subuser_created_at',
        'subusers.updated_at as subuser_updated_at',
      ])
      .where('subusers.server_id', 'in', serverIds)
      .orderBy('subusers.id')
      .execute();
    return rows.map(
      ({
        subuser_id,
        subuser_server_id,
        subuser_permissions,
        subuser_file_paths,
        subuser_created_at,
        subuser_updated_at,
        ...user
      }) => ({
        user,
        subuser: {
          id: subuser_id,
          user_id: user.id,
          server_id: subuser_server_id,
          permissions: subuser_permissions,
          file_paths: subuser_file_paths,
          created_at: subuser_created_at,
          updated_at: subuser_updated_at,
        },
      }),
    );
  }

  /** The subuser of `serverId` whose account has `userUuid`, or undefined (reference §1.7 `{user}`). */
  async findByUserUuid(serverId: number, userUuid: string): Promise<SubuserWithUser | undefined> {
    const user = await this.db
      .selectFrom('users')
      .selectAll()
      .where('uuid', '=', userUuid)
      .executeTakeFirst();
    if (!user) return undefined;
    const subuser = await this.find(serverId, user.id);
    return subuser ? { user, subuser } : undefined;
  }

  find(serverId: number, userId: number): Promise<Subuser | undefined> {
    return this.db
      .selectFrom('subusers')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * Adds the link, or returns undefined when the user is already a subuser of the server (also
   * when a concurrent request added them a moment ago: the unique pair decides).
   */
  insert(values: {
    serverId: number;
    userId: number;
    permissions: string[];
    filePaths: string[] | null;
    at: string;
  }): Promise<Subuser | undefined> {
    return this.db
      .insertInto('subusers')
      .values({
        server_id: values.serverId,
        user_id: values.userId,
        permissions: JSON.stringify(values.permissions),
        file_paths: values.filePaths === null ? null : JSON.stringify(values.filePaths),
        created_at: values.at,
        updated_at: values.at,
      })
      .onConflict((oc) => oc.columns(['user_id', 'server_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async update(
    id: number,
    values: { permissions: string[]; filePaths: string[] | null; at: string },
  ): Promise<Subuser> {
    return this.db
      .updateTable('subusers')
      .set({
        permissions: JSON.stringify(values.permissions),
        file_paths: values.filePaths === null ? null : JSON.stringify(values.filePaths),
        updated_at: values.at,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('subusers').where('id', '=', id).execute();
  }
}
