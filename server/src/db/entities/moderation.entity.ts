import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { Comment } from './comment.entity.js';
import { EndUser } from './end-user.entity.js';
import { Feedback } from './feedback.entity.js';
import { Project } from './project.entity.js';

const p = defineEntity.properties;

/** Why a post waits: the project holds anonymous posts, every end user's post, or posts with a link. */
export const HOLD_REASONS = ['anonymous', 'all', 'link'] as const;

/**
 * A submission, a comment or an edit of a comment waiting for the team
 * (Migration0022_moderation): outside `feedback` and `comments`, so no public read,
 * counter or total sees it. A new post's id becomes the item's or the comment's on approval; an
 * edit's text replaces its comment's. Written and read by domain/moderation/moderation.sql.ts.
 */
export const HeldPost = defineEntity({
  name: 'HeldPost',
  tableName: 'held_posts',
  indexes: [
    { name: 'held_posts_project_id_created_at_index', properties: ['project', 'createdAt'] },
    { name: 'held_posts_one_edit_per_comment', expression: 'create unique index "held_posts_one_edit_per_comment" on "held_posts" ("comment_id") where "comment_id" is not null' },
  ],
  checks: [{ name: 'held_posts_edit_check', expression: `comment_id is null or kind = 'comment'` }],
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
    /** An edit of a published comment (Migration0029_held_edits): that comment, whose text `content` would replace. */
    comment: p.manyToOne(Comment).nullable().deleteRule('cascade').updateRule('cascade'),
    reason: p.enum([...HOLD_REASONS]),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type HeldPost = InferEntity<typeof HeldPost>;

/**
 * An author the team blocked when rejecting a post (Migration0028_block_expiry): by voter
 * key, so an anonymous caller can be blocked too (by address, then). One per author and project;
 * `expiresAt` null lasts until lifted. Written and read by domain/moderation/moderation.sql.ts, checked by
 * domain/moderation/posting-blocks.sql.ts.
 */
export const PostingBlock = defineEntity({
  name: 'PostingBlock',
  tableName: 'posting_blocks',
  uniques: [{ name: 'posting_blocks_project_id_voter_key_unique', properties: ['project', 'voterKey'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    /** The author as votes key them: the end user's id, or the anonymous caller's hashed address. */
    voterKey: p.text(),
    endUser: p.manyToOne(EndUser).nullable().deleteRule('cascade').updateRule('cascade'),
    /** The start of the rejected post that made the block, so that the team can tell blocks apart. */
    excerpt: p.text().nullable(),
    createdAt: p.datetime(3).defaultRaw('now()'),
    /** When the block ends by itself; null: when the team lifts it. */
    expiresAt: p.datetime(3).nullable(),
  },
});

export type PostingBlock = InferEntity<typeof PostingBlock>;
