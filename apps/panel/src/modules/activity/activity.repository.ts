import type { Kysely } from 'kysely';
import type { ActivityLog, Database, User } from '../../db/types.ts';

export interface NewActivity {
  event: string;
  ip: string | null;
  actorId: number | null;
  apiKeyId: number | null;
  properties: Record<string, unknown>;
  subjects: { type: string; id: number }[];
  batch?: string | null;
  description?: string | null;
}

export interface ActivityPage {
  rows: ActivityLog[];
  total: number;
}

export class ActivityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The accounts behind a page's actors, in one query. */
  actors(ids: readonly number[]): Promise<User[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  async insert(a: NewActivity, timestamp: string): Promise<void> {
    await this.insertAll([{ activity: a, timestamp }]);
  }

  /** Several entries in one transaction: all of them are stored, or none. */
  async insertAll(entries: readonly { activity: NewActivity; timestamp: string }[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const { activity: a, timestamp } of entries) {
        const row = await trx
          .insertInto('activity_logs')
          .values({
            batch: a.batch ?? null,
            event: a.event,
            ip: a.ip,
            description: a.description ?? null,
            actor_type: a.actorId === null ? null : 'user',
            actor_id: a.actorId,
            api_key_id: a.apiKeyId,
            properties: JSON.stringify(a.properties),
            timestamp,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (a.subjects.length > 0) {
          await trx
            .insertInto('activity_log_subjects')
            .values(
              a.subjects.map((s) => ({ activity_log_id: row.id, subject_type: s.type, subject_id: s.id })),
            )
            .execute();
        }
      }
    });
  }

  /**
   * Entries whose subject is the given record, newest first or oldest first. `hideAdminsOf` leaves
   * out entries whose actor is a root admin who is neither the server's owner nor its subuser
   * (`APP_ACTIVITY_HIDE_ADMIN`, reference §3.3 "GET /activity").
   */
  async forSubject(
    subject: { type: string; id: number },
    opts: {
      eventLike?: string[];
      descending: boolean;
      offset: number;
      limit: number;
      hideAdminsOf?: { serverId: number; ownerId: number };
    },
  ): Promise<ActivityPage> {
    let base = this.db
      .selectFrom('activity_logs')
      .innerJoin('activity_log_subjects as s', 's.activity_log_id', 'activity_logs.id')
      .where('s.subject_type', '=', subject.type)
      .where('s.subject_id', '=', subject.id)
      .where('activity_logs.event', '!=', 'server:file.upload');
    if (opts.eventLike && opts.eventLike.length > 0) {
      const likes = opts.eventLike;
      base = base.where((eb) =>
        eb.or(
          likes.map((v) =>
            eb(eb.fn('lower', ['activity_logs.event']), 'like', `%${escapeLike(v.toLowerCase())}%`),
          ),
        ),
      );
    }
    const hidden = opts.hideAdminsOf;
    if (hidden) {
      base = base.where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('users as admin')
              .select('admin.id')
              .whereRef('admin.id', '=', 'activity_logs.actor_id')
              .where('admin.root_admin', '=', 1)
              .where('admin.id', '!=', hidden.ownerId)
              .where((inner) =>
                inner.not(
                  inner.exists(
                    inner
                      .selectFrom('subusers as member')
                      .select('member.id')
                      .whereRef('member.user_id', '=', 'admin.id')
                      .where('member.server_id', '=', hidden.serverId),
                  ),
                ),
              ),
          ),
        ),
      );
    }
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await base
      .selectAll('activity_logs')
      .orderBy('activity_logs.timestamp', opts.descending ? 'desc' : 'asc')
      .orderBy('activity_logs.id', opts.descending ? 'desc' : 'asc')
      .offset(opts.offset)
      .limit(opts.limit)
      .execute();
    return { rows, total: Number(count?.n ?? 0) };
  }
}

function escapeLike(v: string): string {
  return v.replace(/[\\%_]/gu, (c) => `\\${c}`);
}
