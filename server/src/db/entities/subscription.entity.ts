import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { Feedback } from './feedback.entity.js';
import { EndUser } from './end-user.entity.js';
import { Project } from './project.entity.js';

const p = defineEntity.properties;

/**
 * One end user's subscription to one item: they are told when it moves (docs/notifications.md).
 * `reasons` holds why, as bits (1 submitted, 2 voted, 4 commented, 8 chose to subscribe), so
 * taking back a vote leaves a subscription that commenting made. `unsubscribedAt` is an explicit
 * unsubscribe that taking part again does not undo. Keyed by the pair, which every write upserts.
 */
export const Subscription = defineEntity({
  name: 'Subscription',
  tableName: 'subscriptions',
  indexes: [{ name: 'subscriptions_end_user_id_index', properties: ['endUser'] }],
  properties: {
    feedback: p.manyToOne(Feedback).primary().deleteRule('cascade').updateRule('cascade'),
    endUser: p.manyToOne(EndUser).primary().deleteRule('cascade').updateRule('cascade'),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    reasons: p.smallint().default(0),
    unsubscribedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type Subscription = InferEntity<typeof Subscription>;
