import type { RecordData } from './format.js';
import type { SqlClient } from './tables.js';

/**
 * What became of the voter salt of a dump's project (anonymous voters' keys are HMACs of their IP
 * under it):
 * - `carried`: the project was created by the import, with the dump's salt;
 * - `same`: the project was there with the same salt;
 * - `adopted`: the project was there with another salt but no anonymous vote yet, and now has the
 *   dump's salt, so the imported anonymous voters are recognised when they vote again;
 * - `kept`: the project was there with another salt and anonymous votes of its own; it keeps its
 *   salt, and the imported anonymous votes keep their keys, so those voters count as new voters
 *   if they vote again on the same items.
 */
export type VoterSaltOutcome = 'carried' | 'same' | 'adopted' | 'kept';

export interface ProjectOutcome {
  /** The project's slug in the dump. */
  from: string;
  /** The project's slug in this database (another one with `--project`). */
  slug: string;
  id: string;
  created: boolean;
  voterSalt: VoterSaltOutcome;
}

/**
 * Finds or creates the project a dump's project goes into: by slug (`slug`, or else the dump's).
 * A project that exists keeps its id, name and creation time, so a dump of `default` imports into
 * the `default` project a server made on its first start. A new one gets the dump's id, name,
 * salt and creation time (a fresh id if that id names another project here).
 */
export async function importProject(client: SqlClient, record: RecordData<'project'>, slug: string): Promise<ProjectOutcome> {
  const { rows: inserted } = await client.query(
    `insert into projects (id, slug, name, voter_salt, created_at)
     select case when exists (select 1 from projects where id = $1::uuid) then gen_random_uuid() else $1::uuid end, $2, $3, $4, $5::timestamptz
     on conflict (slug) do nothing returning id`,
    [record.id, slug, record.name, record.voterSalt, record.createdAt],
  );
  // Locked until the import commits: a concurrent import into the same project waits for this one.
  const { rows } = await client.query<{ id: string; voter_salt: string }>('select id::text as id, voter_salt from projects where slug = $1 for update', [slug]);
  const project = { ...rows[0]!, created: inserted.length > 0 };
  const outcome = { from: record.slug, slug, id: project.id, created: project.created };
  if (project.created) return { ...outcome, voterSalt: 'carried' };
  if (project.voter_salt === record.voterSalt) return { ...outcome, voterSalt: 'same' };
  const { rows: anonymous } = await client.query(
    `select 1 from votes v join feedback f on f.id = v.feedback_id where f.project_id = $1::uuid and v.end_user_id is null limit 1`,
    [project.id],
  );
  if (anonymous.length > 0) return { ...outcome, voterSalt: 'kept' };
  await client.query('update projects set voter_salt = $2 where id = $1::uuid', [project.id, record.voterSalt]);
  return { ...outcome, voterSalt: 'adopted' };
}
