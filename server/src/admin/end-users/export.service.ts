import type { EntityManager } from '@mikro-orm/postgresql';
import type { UserExport } from '@feedbackd/sdk/contract';
import { isoTimestamp } from '../../db/json.sql.js';
import { projectIdOf, type ProjectRef } from './project-ref.js';

/**
 * Everything stored about one end user, as one document, from one statement (so one snapshot):
 * the profile with its metadata, their items with their counts and status history, their votes
 * and their comments, each naming its item. Parameters: the export's time, the project, the externalId.
 * What is not there is not stored: anonymous votes are keyed by a hash of an address, not by the
 * person, and the webhook log holds copies of the events listed in docs/webhooks.md.
 */
const EXPORT_END_USER = `select jsonb_build_object(
    'exportedAt', ${isoTimestamp('?::timestamptz')},
    'endUser', jsonb_build_object('externalId', e.external_id, 'email', e.email, 'name', e.name, 'avatarUrl', e.avatar_url,
      'metadata', e.metadata, 'createdAt', ${isoTimestamp('e.created_at')}, 'updatedAt', ${isoTimestamp('e.updated_at')}),
    'submissions', coalesce((
      select jsonb_agg(jsonb_build_object('id', f.id, 'title', f.title, 'description', f.description, 'type', f.type, 'status', f.status,
        'metadata', f.metadata, 'voteCount', c.vote_count, 'commentCount', c.comment_count, 'createdAt', ${isoTimestamp('f.created_at')},
        'statusHistory', coalesce((
          select jsonb_agg(jsonb_build_object('from', s.from_status, 'to', s.to_status, 'changedAt', ${isoTimestamp('s.changed_at')}) order by s.id)
          from feedback_status_changes s where s.feedback_id = f.id), '[]'::jsonb)
      ) order by f.created_at, f.id)
      from feedback f join feedback_counters c on c.feedback_id = f.id where f.end_user_id = e.id), '[]'::jsonb),
    'votes', coalesce((
      select jsonb_agg(jsonb_build_object('feedbackId', v.feedback_id, 'feedbackTitle', f.title, 'createdAt', ${isoTimestamp('v.created_at')}) order by v.created_at, v.id)
      from votes v join feedback f on f.id = v.feedback_id where v.end_user_id = e.id), '[]'::jsonb),
    'comments', coalesce((
      select jsonb_agg(jsonb_build_object('id', cm.id, 'feedbackId', cm.feedback_id, 'feedbackTitle', f.title, 'content', cm.content,
        'createdAt', ${isoTimestamp('cm.created_at')}) order by cm.created_at, cm.id)
      from comments cm join feedback f on f.id = cm.feedback_id where cm.author_end_user_id = e.id), '[]'::jsonb)
  ) as document
  from end_users e where e.project_id = ? and e.external_id = ?`;

/** The export of end user `externalId` of the project (EXPORT_END_USER), or undefined when the project holds no such person. */
export async function exportEndUser(em: EntityManager, project: ProjectRef, externalId: string, at: Date = new Date()): Promise<UserExport | undefined> {
  const rows = await em.execute<{ document: UserExport }[]>(EXPORT_END_USER, [at.toISOString(), await projectIdOf(em, project), externalId]);
  return rows[0]?.document;
}
