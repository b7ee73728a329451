import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { EndUser } from './end-user.entity.js';
import { Feedback } from './feedback.entity.js';

const p = defineEntity.properties;

/**
 * A comment on an item, by an end user or by the owning team (Migration0019_conversation
 * for replies, notes, the pin and edits). The hot side writes and reads it with its own statements
 * (domain/comments/comments.sql.ts); this entity describes the table for the schema and the operator side.
 */
export const Comment = defineEntity({
  name: 'Comment',
  tableName: 'comments',
  indexes: [
    { name: 'comments_feedback_id_created_at_index', properties: ['feedback', 'createdAt'] },
    { name: 'comments_parent_id_index', expression: 'create index "comments_parent_id_index" on "comments" ("parent_id") where "parent_id" is not null' },
    { name: 'comments_one_pinned_per_item', expression: 'create unique index "comments_one_pinned_per_item" on "comments" ("feedback_id") where "is_pinned"' },
  ],
  checks: [{ name: 'comments_pinned_check', expression: '(not is_pinned) or (is_team and (not is_internal))' }],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    feedback: p.manyToOne(Feedback).deleteRule('cascade').updateRule('cascade'),
    authorEndUser: p.manyToOne(EndUser).nullable().deleteRule('set null').updateRule('cascade'),
    /** Display name of a team author (team members are not end users). */
    authorName: p.text().nullable(),
    isTeam: p.boolean().default(false),
    content: p.text(),
    createdAt: p.datetime(3).defaultRaw('now()'),
    /** The top-level comment this one answers; replies are one level deep. */
    parent: p.manyToOne(Feedback).nullable().deleteRule('cascade').updateRule('cascade'),
    /** A private note of the team: shown to secret keys only, never counted in comment_count. */
    isInternal: p.boolean().default(false),
    /** The item's official answer, shown first; one per item. */
    isPinned: p.boolean().default(false),
    editedAt: p.datetime(3).nullable(),
  },
});

// defineEntity takes a relation's target as a value, and the table's own value does not exist yet
// while it is being defined: `parent` names a placeholder above and is pointed at Comment here,
// before the ORM discovers the entities (it reads `entity()` only then).
(Comment.meta.properties.parent as unknown as { entity: () => unknown }).entity = () => Comment;

export type Comment = InferEntity<typeof Comment>;

/** A comment's content before an edit replaced it (GET .../comments/:commentId/history). */
export const CommentRevision = defineEntity({
  name: 'CommentRevision',
  tableName: 'comment_revisions',
  indexes: [{ name: 'comment_revisions_comment_id_index', properties: ['comment', 'replacedAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    comment: p.manyToOne(Comment).deleteRule('cascade').updateRule('cascade'),
    content: p.text(),
    /** When this content was written: the comment's creation or its previous edit. */
    writtenAt: p.datetime(3),
    replacedAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type CommentRevision = InferEntity<typeof CommentRevision>;
