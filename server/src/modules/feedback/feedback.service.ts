import type { EntityManager } from '@mikro-orm/postgresql';
import { ERROR_MESSAGES, type CreateFeedbackRequestSchema, type FeedbackDetail, type FeedbackListItem } from '@feedback/sdk/contract';
import type { z } from 'zod';
import { isUuid } from '../../db/uuid.js';
import { AppError } from '../../http/errors.js';
import { identifyEndUser } from '../users/users.service.js';
import { voterKey } from '../votes/voter.js';
import { listComments } from './comments.service.js';
import { FEEDBACK_ITEM_COLUMNS, FEEDBACK_ITEM_FROM, toFeedbackListItem, type FeedbackItemRow } from './feedback-row.js';

type CreateFeedbackInput = z.output<typeof CreateFeedbackRequestSchema>;

/**
 * Spec 4.2: stores a new item with status `new`, and the submission as the submitter's vote
 * (voteCount 1). The submitter is identified (upserted) in the same transaction; without one the
 * vote belongs to the caller's IP. Item, counters and vote are one statement: all or nothing.
 */
export async function createFeedback(em: EntityManager, projectId: string, input: CreateFeedbackInput, callerIp: string): Promise<FeedbackListItem> {
  return em.transactional(async (tx) => {
    const submitter = input.endUser ? await identifyEndUser(tx, projectId, input.endUser) : undefined;
    const key = await voterKey(tx, projectId, submitter ? { kind: 'user', endUserId: submitter.id } : { kind: 'anonymous', ip: callerIp });
    const rows = await tx.execute<FeedbackItemRow[]>(
      `with f as (
         insert into feedback (project_id, end_user_id, title, description, type, metadata)
         values (?, ?, ?, ?, ?, cast(? as jsonb))
         returning *
       ), c as (
         insert into feedback_counters (feedback_id, project_id, created_at, vote_count, comment_count)
         select id, project_id, created_at, 1, 0 from f
         returning *
       ), v as (
         insert into votes (feedback_id, voter_key, end_user_id) select id, ?, end_user_id from f
       )
       select ${FEEDBACK_ITEM_COLUMNS}
       from f join c on c.feedback_id = f.id left join end_users u on u.id = f.end_user_id`,
      [
        projectId,
        submitter?.id ?? null,
        input.title,
        input.description ?? null,
        input.type,
        input.metadata == null ? null : JSON.stringify(input.metadata),
        key,
      ],
    );
    return toFeedbackListItem(single(rows));
  });
}

/**
 * Spec 4.4: one item of the caller's project with its comments (oldest first). `userHasVoted`
 * says whether the end user with external id `endUserId` has voted; without one it is false.
 */
export async function getFeedbackDetail(em: EntityManager, projectId: string, id: string, endUserId: string | undefined): Promise<FeedbackDetail> {
  const feedbackId = requireFeedbackId(id);
  const rows = await em.execute<(FeedbackItemRow & { user_has_voted: boolean })[]>(
    `select ${FEEDBACK_ITEM_COLUMNS},
       exists (
         select 1 from votes v
         where v.feedback_id = f.id
           and v.voter_key = (select e.id::text from end_users e where e.project_id = f.project_id and e.external_id = ?)
       ) as user_has_voted
     from ${FEEDBACK_ITEM_FROM}
     where f.id = ? and f.project_id = ?`,
    [endUserId ?? null, feedbackId, projectId],
  );
  const row = rows[0];
  if (!row) throw feedbackNotFound();
  return { ...toFeedbackListItem(row), userHasVoted: row.user_has_voted, comments: await listComments(em, feedbackId) };
}

/**
 * The id of a path, checked before any query: a malformed id cannot name an item, so it is the
 * same 404 as an unknown one (and never reaches PostgreSQL as a failing uuid cast).
 */
export function requireFeedbackId(id: string): string {
  if (!isUuid(id)) throw feedbackNotFound();
  return id.toLowerCase();
}

/** Spec part 7: 404 "Feedback not found", for unknown, malformed and other projects' ids alike. */
export function feedbackNotFound(): AppError {
  return new AppError(404, ERROR_MESSAGES.feedbackNotFound);
}

function single<T>(rows: T[]): T {
  const row = rows[0];
  if (!row) throw new Error('the statement returned no row');
  return row;
}
