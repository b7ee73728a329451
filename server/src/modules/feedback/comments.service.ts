import type { EntityManager } from '@mikro-orm/postgresql';
import { addComment as addAdminComment } from '../../admin/comments.service.js';

/** Who writes a comment: a member of the owning team (by display name) or an end user (by external id). */
export type CommentAuthorInput = { kind: 'team'; name: string } | { kind: 'user'; externalId: string };

/**
 * Adds a comment and counts it, in one transaction: the operator's own operation
 * (admin/comments.service.ts, behind POST /api/v1/feedback/:id/comments), for seeding and tests.
 * Returns false when the item does not exist in the project.
 */
export async function addComment(
  em: EntityManager,
  projectId: string,
  feedbackId: string,
  content: string,
  author: CommentAuthorInput,
): Promise<boolean> {
  const added = await addAdminComment(
    em,
    projectId,
    feedbackId,
    content,
    author.kind === 'team' ? author : { kind: 'user', endUser: { externalId: author.externalId } },
  );
  return added !== undefined;
}
