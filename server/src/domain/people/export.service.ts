import type { EntityManager } from '@mikro-orm/postgresql';
import type { UserExport } from '@feedbackd/sdk/contract';
import { isoTimestamp } from '../../db/json.sql.js';
import { SUBSCRIPTION_REASONS } from '../subscriptions/reasons.js';
import { projectIdOf, type ProjectRef } from './project-ref.js';

/** A nullable timestamp as the API shows it: null stays null. */
const isoOrNull = (column: string) => `case when ${column} is null then null else ${isoTimestamp(column)} end`;

/** The names of the reasons set in `bits` (subscriptions.reasons), in SUBSCRIPTION_REASONS' order, as a jsonb array. */
const reasonNames = (bits: string) =>
  `(select coalesce(jsonb_agg(r.name order by r.bit), '[]'::jsonb) from (values ${Object.entries(SUBSCRIPTION_REASONS)
    .map(([name, bit]) => `('${name}', ${bit})`)
    .join(', ')}) r(name, bit) where ${bits} & r.bit <> 0)`;

/**
 * Everything stored about one end user, as one document, from one statement (so one snapshot):
 * every row that names them, table by table (test/server/user-export-coverage.test.ts derives the
 * tables from the schema and fails on one left out):
 * - end_users: the profile with its metadata, the project-wide unsubscribe, the suppression of
 *   their address after a refused mail, and when the widget last greeted them;
 * - feedback, feedback_counters, feedback_status_changes: their items with their counts and
 *   status history;
 * - votes; comments with comment_revisions (the earlier versions of an edited comment);
 * - subscriptions, with the reasons and a per-item unsubscribe;
 * - held_posts: what they wrote that waits for the team;
 * - notifications: what each change told them and where its mail stands (the log of what was
 *   mailed to their address);
 * - posting_blocks: the team's block of them.
 * Left out, with the reason: the row ids of the project and of the person (the export names them
 * by externalId), the keys of their anonymous rows (a keyed hash of an address, or their own id),
 * the mail sender's bookkeeping, and who on the team changed a status. Copies in the webhook
 * outbox and log, and stored Idempotency-Key answers, are not read here: they are the events and
 * answers built from these rows (docs/api.md). Parameters: the export's time, the project, the externalId.
 */
const EXPORT_END_USER = `select jsonb_build_object(
    'exportedAt', ${isoTimestamp('?::timestamptz')},
    'endUser', jsonb_build_object('externalId', e.external_id, 'email', e.email, 'name', e.name, 'avatarUrl', e.avatar_url,
      'metadata', e.metadata, 'createdAt', ${isoTimestamp('e.created_at')}, 'updatedAt', ${isoTimestamp('e.updated_at')},
      'unsubscribedAt', ${isoOrNull('e.unsubscribed_at')}, 'emailSuppressedAt', ${isoOrNull('e.email_suppressed_at')},
      'widgetSeenAt', ${isoOrNull('e.widget_seen_at')}),
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
      select jsonb_agg(jsonb_build_object('id', cm.id, 'feedbackId', cm.feedback_id, 'feedbackTitle', f.title, 'parentId', cm.parent_id,
        'content', cm.content, 'internal', cm.is_internal, 'createdAt', ${isoTimestamp('cm.created_at')}, 'editedAt', ${isoOrNull('cm.edited_at')},
        'revisions', coalesce((
          select jsonb_agg(jsonb_build_object('content', r.content, 'writtenAt', ${isoTimestamp('r.written_at')}, 'replacedAt', ${isoTimestamp('r.replaced_at')})
            order by r.replaced_at, r.id)
          from comment_revisions r where r.comment_id = cm.id), '[]'::jsonb)
      ) order by cm.created_at, cm.id)
      from comments cm join feedback f on f.id = cm.feedback_id where cm.author_end_user_id = e.id), '[]'::jsonb),
    'subscriptions', coalesce((
      select jsonb_agg(jsonb_build_object('feedbackId', s.feedback_id, 'feedbackTitle', f.title, 'reasons', ${reasonNames('s.reasons')},
        'unsubscribedAt', ${isoOrNull('s.unsubscribed_at')}, 'createdAt', ${isoTimestamp('s.created_at')}) order by s.created_at, s.feedback_id)
      from subscriptions s join feedback f on f.id = s.feedback_id where s.end_user_id = e.id), '[]'::jsonb),
    'heldPosts', coalesce((
      select jsonb_agg(jsonb_build_object('id', h.id, 'kind', h.kind, 'feedbackId', h.feedback_id, 'feedbackTitle', f.title, 'parentId', h.parent_id, 'editOf', h.comment_id,
        'title', h.title, 'description', h.description, 'type', h.type, 'metadata', h.metadata, 'content', h.content, 'reason', h.reason,
        'createdAt', ${isoTimestamp('h.created_at')}) order by h.created_at, h.id)
      from held_posts h left join feedback f on f.id = h.feedback_id where h.end_user_id = e.id), '[]'::jsonb),
    'notifications', coalesce((
      select jsonb_agg(jsonb_build_object('id', n.id, 'feedbackId', n.feedback_id, 'change', jsonb_build_object('id', n.change_id, 'kind', n.kind) || n.data,
        'mailState', n.mail_state, 'attempts', n.attempts, 'lastError', n.last_error, 'createdAt', ${isoTimestamp('n.created_at')},
        'sentAt', ${isoOrNull('n.sent_at')}) order by n.created_at, n.id)
      from notifications n where n.end_user_id = e.id), '[]'::jsonb),
    'blocks', coalesce((
      select jsonb_agg(jsonb_build_object('id', b.id, 'excerpt', b.excerpt, 'createdAt', ${isoTimestamp('b.created_at')},
        'expiresAt', ${isoOrNull('b.expires_at')}) order by b.created_at)
      from posting_blocks b where b.end_user_id = e.id), '[]'::jsonb)
  ) as document
  from end_users e where e.project_id = ? and e.external_id = ?`;

/** The export of end user `externalId` of the project (EXPORT_END_USER), or undefined when the project holds no such person. */
export async function exportEndUser(em: EntityManager, project: ProjectRef, externalId: string, at: Date = new Date()): Promise<UserExport | undefined> {
  const rows = await em.execute<{ document: UserExport }[]>(EXPORT_END_USER, [at.toISOString(), await projectIdOf(em, project), externalId]);
  return rows[0]?.document;
}
