import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { Feedback } from './feedback.entity.js';
import { EndUser } from './end-user.entity.js';

const p = defineEntity.properties;

/**
 * One voter's vote on one item. `voterKey` is never null: the end user's id, or a salted hash of
 * an anonymous caller's IP. (Unique constraints treat NULLs as distinct, so keying on two nullable
 * columns would let one anonymous caller vote twice.)
 */
export const Vote = defineEntity({
  name: 'Vote',
  tableName: 'votes',
  uniques: [{ name: 'votes_feedback_id_voter_key_unique', properties: ['feedback', 'voterKey'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    feedback: p.manyToOne(Feedback).deleteRule('cascade').updateRule('cascade'),
    voterKey: p.text(),
    endUser: p.manyToOne(EndUser).nullable().deleteRule('cascade').updateRule('cascade'),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type Vote = InferEntity<typeof Vote>;
