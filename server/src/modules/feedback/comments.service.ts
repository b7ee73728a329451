import type { EntityManager } from '@mikro-orm/postgresql';
import { identifyEndUser } from '../users/users.service.js';

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
