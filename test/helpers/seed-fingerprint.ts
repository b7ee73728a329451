import type { MikroORM } from '@feedbackd/server';

/**
 * Per table, an md5 over every seeded row in id order, without the columns that differ between
 * two databases by design (the project's id, which the database makes). Timestamps are taken as
 * epoch milliseconds, so the session's time zone cannot change the text.
 */
const TABLES = {
  end_users: `select md5(coalesce(string_agg(concat_ws('|', id, external_id, email, name, avatar_url, metadata::text, ${ms('created_at')}, ${ms('updated_at')}), ',' order by id), '')) as md5 from end_users`,
  feedback: `select md5(coalesce(string_agg(concat_ws('|', id, end_user_id, title, description, type, status, metadata::text, ${ms('created_at')}), ',' order by id), '')) as md5 from feedback`,
  feedback_counters: `select md5(coalesce(string_agg(concat_ws('|', feedback_id, ${ms('created_at')}, status, type, vote_count, comment_count), ',' order by feedback_id), '')) as md5 from feedback_counters`,
  votes: `select md5(coalesce(string_agg(concat_ws('|', id, feedback_id, voter_key, end_user_id, ${ms('created_at')}), ',' order by id), '')) as md5 from votes`,
  comments: `select md5(coalesce(string_agg(concat_ws('|', id, feedback_id, author_end_user_id, author_name, is_team, content, ${ms('created_at')}), ',' order by id), '')) as md5 from comments`,
  subscriptions: `select md5(coalesce(string_agg(concat_ws('|', feedback_id, end_user_id, reasons, unsubscribed_at), ',' order by feedback_id, end_user_id), '')) as md5 from subscriptions`,
  // The shards of a cell depend on the writing connection; the cells' sums do not.
  feedback_stats: `select md5(coalesce(string_agg(cell, ',' order by cell), '')) as md5 from (select concat_ws('|', status, type, sum(item_count)) as cell from feedback_stats group by status, type) s`,
} as const;

function ms(column: string): string {
  return `(extract(epoch from ${column}) * 1000)::bigint`;
}

export type Fingerprint = Record<keyof typeof TABLES, string>;

/** The fingerprint of a whole database that holds only seeded rows. */
export async function seedFingerprint(orm: MikroORM): Promise<Fingerprint> {
  const em = orm.em.fork();
  const result: Partial<Fingerprint> = {};
  for (const [table, sql] of Object.entries(TABLES)) {
    const [row] = await em.execute<{ md5: string }[]>(sql);
    result[table as keyof Fingerprint] = row!.md5;
  }
  return result as Fingerprint;
}
