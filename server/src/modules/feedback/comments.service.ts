import type { EntityManager } from '@mikro-orm/postgresql';
import type { Comment, CommentAuthor } from '@feedback/sdk/contract';
import { identifyEndUser } from '../users/users.service.js';
import { isoTimestamp } from './feedback-row.js';

interface CommentRow {
  id: string;
  content: string;
  created_at: string;
  is_team: boolean;
  author_name: string | null;
  author_end_user_id: string | null;
  end_user_name: string | null;
  end_user_avatar_url: string | null;
}

/** The comments of an item, oldest first, with their authors in the shape of spec 2.4. */
export async function listComments(em: EntityManager, feedbackId: string): Promise<Comment[]> {
  const rows = await em.execute<CommentRow[]>(
    `select cm.id, cm.content, ${isoTimestamp('cm.created_at')} as created_at, cm.is_team, cm.author_name,
            cm.author_end_user_id, u.name as end_user_name, u.avatar_url as end_user_avatar_url
     from comments cm left join end_users u on u.id = cm.author_end_user_id
     where cm.feedback_id = ?
     order by cm.created_at asc, cm.id asc`,
    [feedbackId],
  );
  return rows.map((row) => ({ id: row.id, content: row.content, createdAt: row.created_at, author: toAuthor(row) }));
}

/** The author of a comment: the team (`isTeam: true`), an end user (with `avatarUrl`), or null when unknown. */
function toAuthor(row: CommentRow): CommentAuthor | null {
  if (row.is_team) return { name: row.author_name, isTeam: true };
  if (row.author_end_user_id !== null) return { name: row.end_user_name, avatarUrl: row.end_user_avatar_url };
  return null;
}

/** Who writes a comment: a member of the owning team (by display name) or an end user (by external id). */
export type CommentAuthorInput = { kind: 'team'; name: string } | { kind: 'user'; externalId: string };

/**
 * Adds a comment and counts it, in one statement. The public API has no operation that writes
 * comments (spec 2.4 only reads them); seeding and the tests use this.
 * Returns false when the item does not exist in the project.
 */
export async function addComment(
  em: EntityManager,
  projectId: string,
  feedbackId: string,
  content: string,
  author: CommentAuthorInput,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const endUser = author.kind === 'user' ? await identifyEndUser(tx, projectId, { externalId: author.externalId }) : undefined;
    const rows = await tx.execute<{ id: string }[]>(
      `with cm as (
         insert into comments (feedback_id, author_end_user_id, author_name, is_team, content)
         select c.feedback_id, ?, ?, ?, ? from feedback_counters c where c.feedback_id = ? and c.project_id = ?
         returning id, feedback_id
       ), counted as (
         update feedback_counters set comment_count = comment_count + 1 where feedback_id in (select feedback_id from cm)
       )
       select id from cm`,
      [endUser?.id ?? null, author.kind === 'team' ? author.name : null, author.kind === 'team', content, feedbackId, projectId],
    );
    return rows.length > 0;
  });
}
