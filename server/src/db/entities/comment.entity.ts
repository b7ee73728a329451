import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { EndUser } from './end-user.entity.js';
import { Feedback } from './feedback.entity.js';

const p = defineEntity.properties;

/** A comment on an item, by an end user or by the owning team. */
export const Comment = defineEntity({
  name: 'Comment',
  tableName: 'comments',
  indexes: [{ name: 'comments_feedback_id_created_at_index', properties: ['feedback', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    feedback: p.manyToOne(Feedback).deleteRule('cascade').updateRule('cascade'),
    authorEndUser: p.manyToOne(EndUser).nullable().deleteRule('set null').updateRule('cascade'),
    /** Display name of a team author (team members are not end users). */
    authorName: p.text().nullable(),
    isTeam: p.boolean().default(false),
    content: p.text(),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type Comment = InferEntity<typeof Comment>;
