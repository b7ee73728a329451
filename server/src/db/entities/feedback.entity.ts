import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { FEEDBACK_STATUSES, FEEDBACK_TYPES, type Metadata } from '@feedbackd/sdk/contract';
import { Project } from './project.entity.js';
import { EndUser } from './end-user.entity.js';

const p = defineEntity.properties;

/**
 * A feedback item. Its counters live in FeedbackCounters: a vote then rewrites a narrow row
 * instead of this wide one with its trigram indexes.
 */
export const Feedback = defineEntity({
  name: 'Feedback',
  tableName: 'feedback',
  indexes: [
    { name: 'feedback_project_id_created_at_id_index', expression: 'create index "feedback_project_id_created_at_id_index" on "feedback" ("project_id", "created_at" desc, "id" desc) include ("status", "type")' },
    { name: 'feedback_search_text_trgm_index', expression: 'create index "feedback_search_text_trgm_index" on "feedback" using gin ("search_text" gin_trgm_ops)' },
  ],
  properties: {
    /** Time-ordered for new rows, as are votes', comments' and end users' (migration 0007). */
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    endUser: p.manyToOne(EndUser).nullable().deleteRule('set null').updateRule('cascade'),
    title: p.text(),
    description: p.text().nullable(),
    type: p.enum([...FEEDBACK_TYPES]).default('idea'),
    status: p.enum([...FEEDBACK_STATUSES]).default('new'),
    metadata: p.json<Metadata>().nullable(),
    createdAt: p.datetime(3).defaultRaw('now()'),
    /**
     * The title and description, lower-cased, for search (Migration0006_search_text):
     * kept by PostgreSQL, never written or read by the ORM. The separator is written as the
     * character itself (a JS escape), as PostgreSQL prints the expression back.
     */
    searchText: p.text().generated(`(lower("title" || '\u001f' || coalesce("description", ''))) stored`).lazy().nullable(),
  },
});

/**
 * The counters of a feedback item, changed only by atomic SQL in the transaction that changes what
 * they count (who writes which: docs/architecture.md, "Where counters are written").
 */
export const FeedbackCounters = defineEntity({
  name: 'FeedbackCounters',
  tableName: 'feedback_counters',
  indexes: [
    { name: 'feedback_counters_votes_index', expression: 'create index "feedback_counters_votes_index" on "feedback_counters" ("project_id", "vote_count" desc, "created_at" desc, "feedback_id" desc) include ("status", "type")' },
    { name: 'feedback_counters_comments_index', expression: 'create index "feedback_counters_comments_index" on "feedback_counters" ("project_id", "comment_count" desc, "created_at" desc, "feedback_id" desc) include ("status", "type")' },
  ],
  properties: {
    feedback: p.oneToOne(Feedback).primary().owner().deleteRule('cascade'),
    /** Copied from the item so that the votes and comments sorts are served by one index each. */
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    createdAt: p.datetime(3),
    /** Copies of the item's status and type (kept by triggers), so filtered votes/comments pages need no join. */
    status: p.text(),
    type: p.text(),
    voteCount: p.integer().default(0),
    commentCount: p.integer().default(0),
  },
});

/**
 * Items per (project, status, type), split into shards by the writing connection. Kept by triggers
 * on `feedback` (migration 0004): no code writes it; list totals read it.
 */
export const FeedbackStats = defineEntity({
  name: 'FeedbackStats',
  tableName: 'feedback_stats',
  properties: {
    project: p.manyToOne(Project).primary().deleteRule('cascade').updateRule('cascade'),
    status: p.text().primary(),
    type: p.text().primary(),
    shard: p.smallint().primary(),
    itemCount: p.integer().default(0),
  },
});

export type Feedback = InferEntity<typeof Feedback>;
export type FeedbackCounters = InferEntity<typeof FeedbackCounters>;
export type FeedbackStats = InferEntity<typeof FeedbackStats>;
