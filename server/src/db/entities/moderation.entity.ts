import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { Comment } from './comment.entity.js';
import { EndUser } from './end-user.entity.js';
import { Feedback } from './feedback.entity.js';
import { Project } from './project.entity.js';

const p = defineEntity.properties;

/** Why a post waits: the project holds anonymous posts, every end user's post, or posts with a link. */
export const HOLD_REASONS = ['anonymous', 'all', 'link'] as const;

/**
 * A submission or a comment waiting for the team (Migration20261203001200_moderation): outside
 * `feedback` and `comments`, so no public read, counter or total sees it. Its id becomes the
 * item's or the comment's on approval. Written and read by admin/moderation.sql.ts.
 */
export const HeldPost = defineEntity({
  name: 'HeldPost',
  tableName: 'held_posts',
  indexes: [{ name: 'held_posts_project_id_created_at_index', properties: ['project', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    kind: p.enum(['feedback', 'comment'] as const),
    /** A comment's item. */
    feedback: p.manyToOne(Feedback).nullable().deleteRule('cascade').updateRule('cascade'),
    /** A reply's top-level comment. */
    parent: p.manyToOne(Comment).nullable().deleteRule('cascade').updateRule('cascade'),
    endUser: p.manyToOne(EndUser).nullable().deleteRule('cascade').updateRule('cascade'),
    /** The author as votes key them: the end user's id, or the anonymous caller's hashed address. */
    voterKey: p.text(),
    title: p.text().nullable(),
    description: p.text().nullable(),
    type: p.text().nullable(),
    metadata: p.json().nullable(),
    content: p.text().nullable(),
    reason: p.enum([...HOLD_REASONS]),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type HeldPost = InferEntity<typeof HeldPost>;

/** An author the team blocked when rejecting a post: by voter key, so an anonymous caller can be blocked too. */
export const PostingBlock = defineEntity({
  name: 'PostingBlock',
  tableName: 'posting_blocks',
  properties: {
    project: p.manyToOne(Project).primary().deleteRule('cascade').updateRule('cascade'),
    voterKey: p.text().primary(),
    endUser: p.manyToOne(EndUser).nullable().deleteRule('cascade').updateRule('cascade'),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type PostingBlock = InferEntity<typeof PostingBlock>;
