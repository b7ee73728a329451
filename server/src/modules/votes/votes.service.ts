import type { EntityManager } from '@mikro-orm/postgresql';
import type { EndUserInputSchema, VoteResult } from '@feedback/sdk/contract';
import type { z } from 'zod';
import { feedbackNotFound, requireFeedbackId } from '../feedback/feedback.service.js';
import { identifyEndUser } from '../users/users.service.js';
import { voterKey, type Voter } from './voter.js';

type EndUserInput = z.output<typeof EndUserInputSchema>;

/**
 * Spec 4.5: adds the voter's vote, or removes it when there is one. The item's counters row is
 * locked (`for update`) first, so toggles of one item run one at a time: the check, the vote row
 * and the counter change happen together, and vote_count always equals the number of vote rows.
 * (The lock is taken on the narrow counters row rather than the wide feedback row: it guards the
 * same item, and locking does not rewrite the row the trigram indexes cover.)
 */
export async function toggleVote(
  em: EntityManager,
  projectId: string,
  id: string,
  voter: { endUser: EndUserInput } | { ip: string },
): Promise<VoteResult> {
  const feedbackId = requireFeedbackId(id);
  return em.transactional(async (tx) => {
    const identity: Voter =
      'endUser' in voter
        ? { kind: 'user', endUserId: (await identifyEndUser(tx, projectId, voter.endUser)).id }
        : { kind: 'anonymous', ip: voter.ip };
    const key = await voterKey(tx, projectId, identity);
    const locked = await tx.execute<{ vote_count: number }[]>(
      'select vote_count from feedback_counters where feedback_id = ? and project_id = ? for update',
      [feedbackId, projectId],
    );
    if (locked.length === 0) throw feedbackNotFound();

    const removed = await tx.execute<{ id: string }[]>('delete from votes where feedback_id = ? and voter_key = ? returning id', [feedbackId, key]);
    const voted = removed.length === 0;
    if (voted) {
      await tx.execute('insert into votes (feedback_id, voter_key, end_user_id) values (?, ?, ?)', [feedbackId, key, identity.kind === 'user' ? identity.endUserId : null], 'run');
    }
    const counted = await tx.execute<{ vote_count: number }[]>(
      'update feedback_counters set vote_count = vote_count + ? where feedback_id = ? returning vote_count',
      [voted ? 1 : -1, feedbackId],
    );
    return { voted, voteCount: counted[0]?.vote_count ?? 0 };
  });
}

/**
 * Spec 4.6: whether the voter has voted, and the item's count. The voter is the end user with
 * external id `endUserId` (never identified: an unknown one has not voted), or else the caller's IP.
 */
export async function getVote(
  em: EntityManager,
  projectId: string,
  id: string,
  voter: { endUserId: string } | { ip: string },
): Promise<VoteResult> {
  const feedbackId = requireFeedbackId(id);
  const voterKeySql = 'endUserId' in voter ? '(select e.id::text from end_users e where e.project_id = c.project_id and e.external_id = ?)' : '?';
  const keyParam = 'endUserId' in voter ? voter.endUserId : await voterKey(em, projectId, { kind: 'anonymous', ip: voter.ip });
  const rows = await em.execute<{ vote_count: number; voted: boolean }[]>(
    `select c.vote_count, exists (select 1 from votes v where v.feedback_id = c.feedback_id and v.voter_key = ${voterKeySql}) as voted
     from feedback_counters c
     where c.feedback_id = ? and c.project_id = ?`,
    [keyParam, feedbackId, projectId],
  );
  const row = rows[0];
  if (!row) throw feedbackNotFound();
  return { voted: row.voted, voteCount: row.vote_count };
}
