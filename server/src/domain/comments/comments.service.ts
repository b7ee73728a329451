import type { EntityManager } from '@mikro-orm/postgresql';
import { ERROR_MESSAGES, type Comment as CommentView, type CommentHistory, type CommentRevision, type EndUserInputSchema, type HoldReason } from '@feedbackd/sdk/contract';
import type { z } from 'zod';
import { transaction } from '../../db/conflicts.js';
import { transactionSql } from '../../db/request-transaction.js';
import { createComment, type CreatedComment, type NewCommentAuthor } from './comments.js';
import { commentById, COMMENT_DELETED_EVENT, COMMENT_FOR_CHANGE, COMMENT_REVISIONS, COMMENT_UPDATED_EVENT, DELETE_THREAD, EDIT_COMMENT, KEEP_NOTES, SET_PINNED, UNPIN_OTHERS } from './comments.sql.js';
import { holdReason, postingBlocked } from '../moderation/hold-reason.js';
import { COMMENT_AUTHOR_BLOCKED, DROP_HELD_EDIT, HOLD_EDIT, LOCK_HELD_EDIT } from '../moderation/held-posts.sql.js';
import { commentNotFound, feedbackNotFound, Forbidden, InvalidInput, NotFound } from '../errors.js';
import type { ModerationPolicy } from '../moderation/policy.js';
import { lockCounters, moveCounters } from '../items/counter-moves.js';
import { lockItem } from '../items/item-locks.js';

/*
 * The conversation's changes that need more than one statement (docs/api.md, "Comments"): a
 * comment created pinned, edits, pins, deletes and the history. Each is one transaction that locks
 * the item (`key share`) and then its counters row, as every writer of comments does
 * (domain/comments/comments.sql.ts), so it sees every reply committed before it and none can arrive meanwhile.
 * The API's routes for both kinds of key, the team's pages and the erasure call these.
 */

/** The end-user fields of a comment's author, as a request gives them (identify's). */
type EndUserFields = z.output<typeof EndUserInputSchema>;

/** Who writes a comment: the owning team under a display name, or an end user (created or updated as by identify). */
export type CommentAuthor = { kind: 'team'; name: string } | { kind: 'user'; endUser: EndUserFields };

/** A new comment as the detail view shows it, and the item's comment count after it. */
export type AddedComment = CreatedComment;

/**
 * Who asks for a change: a secret key (the team) or a public key, and the end user they act as, if
 * any. With a public key the caller has proved who the end user is (the board's or the widget's
 * session, or a token signed by the customer's backend: docs/api.md, "Comments"); this service
 * trusts `endUserId` as given.
 */
export interface CommentActor {
  secret: boolean;
  /** The externalId of the end user editing or deleting their own comment. */
  endUserId?: string | undefined;
  /**
   * The project's moderation policy as the caller's cache holds it (domain/moderation/policy.ts):
   * an end user's edit through a public key, the board or the widget is held where a new comment
   * with its text would be. Null or absent: the project holds nothing.
   */
  moderation?: ModerationPolicy | null | undefined;
}

/** An edit's answer: the comment as everyone sees it now, and `held` when its new text waits for the team (the comment then reads as before). */
export interface UpdatedComment {
  comment: CommentView;
  held?: { reason: HoldReason };
}

/**
 * Adds a comment (domain/comments/comments.ts, createComment) in a transaction of `em`, then pins it when
 * `pin`. Undefined when the item is not in the project; then no end user is created either.
 */
export async function addComment(
  em: EntityManager,
  projectId: string,
  feedbackId: string,
  content: string,
  author: CommentAuthor | NewCommentAuthor,
  options: { parentId?: string | null; internal?: boolean; pin?: boolean } = {},
): Promise<AddedComment | undefined> {
  return transaction(em, async (tx) => {
    const sql = transactionSql(tx);
    let added: CreatedComment;
    try {
      added = await createComment(sql, { project: projectId, item: feedbackId, content, author, parentId: options.parentId, internal: options.internal, secret: true });
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
    if (!options.pin) return added;
    await pin(tx, projectId, feedbackId, added.comment.id, true);
    return { ...added, comment: { ...added.comment, isPinned: true } };
  });
}

/** A comment's author as the project's tests give one: the team by name, or an end user by externalId alone. */
export type CommentAuthorInput = { kind: 'team'; name: string } | { kind: 'user'; externalId: string };

/**
 * addComment as the project's tests call it (@feedbackd/server/testing exports it under that
 * name): the author in short, and only whether the item was in the project.
 */
export async function addCommentForTests(
  em: EntityManager,
  projectId: string,
  feedbackId: string,
  content: string,
  author: CommentAuthorInput,
): Promise<boolean> {
  const added = await addComment(em, projectId, feedbackId, content, author.kind === 'team' ? author : { kind: 'user', endUser: { externalId: author.externalId } });
  return added !== undefined;
}

/** A comment locked for a change (COMMENT_FOR_CHANGE). */
type LockedComment = {
  id: string;
  content: string;
  is_team: boolean;
  is_internal: boolean;
  parent_id: string | null;
  external_id: string | null;
  answered: boolean;
};

/** What a change found: the item or the comment missing, or the comment (and for a delete, the item's count and the replies gone). */
export type Missing = 'no-item' | 'no-comment';

/**
 * Locks the item, its counters and the comment, and checks that `actor` may change it: an end user
 * only their own comment, and only until the team has replied to it (403 otherwise); a secret key
 * without an end user any comment (`anyComment`) or only the team's.
 */
async function lockForChange(tx: EntityManager, projectId: string, feedbackId: string, commentId: string, actor: CommentActor, anyComment: boolean): Promise<LockedComment | Missing> {
  if (!(await lockItem(tx, projectId, feedbackId, 'key share'))) return 'no-item';
  await lockCounters(tx, feedbackId);
  const [comment] = await transactionSql(tx).query<LockedComment>('', COMMENT_FOR_CHANGE, [commentId, feedbackId]);
  // A public key never learns that an internal note exists.
  if (!comment || (comment.is_internal && !actor.secret)) return 'no-comment';
  if (actor.endUserId !== undefined) {
    if (comment.is_team || comment.external_id !== actor.endUserId) throw new Forbidden(ERROR_MESSAGES.notCommentAuthor);
    if (comment.answered) throw new Forbidden(ERROR_MESSAGES.commentAnswered);
  } else if (!anyComment && !comment.is_team) {
    throw new Forbidden(ERROR_MESSAGES.notCommentAuthor);
  }
  return comment;
}

/**
 * A public key changes a comment only as its author, named by `endUserId`; without one it asks to
 * act as the team: refused before anything is looked up, as every operator endpoint refuses it.
 */
function requireAuthorOrSecret(actor: CommentActor): void {
  if (!actor.secret && actor.endUserId === undefined) throw new Forbidden(ERROR_MESSAGES.secretKeyRequired);
}

/**
 * Edits a comment's content (its previous content kept in comment_revisions) and/or, for a secret
 * key, pins or unpins a team comment; writes `comment.updated` when something changed. Returns the
 * comment as the caller sees it.
 *
 * An end user's edit (`actor.endUserId`) passes the checks of a new comment (docs/moderation.md,
 * "Edits"): a blocked author is refused (403) whatever the key, as their new comment would be; and
 * through a public key (the API, the board), where the project would hold a comment with the new
 * text (domain/moderation/hold-reason.ts, holdReason), the edit waits in held_posts and the comment keeps its
 * published text until the team approves it (domain/moderation/moderation.service.ts). A comment has one edit
 * waiting at most: the author's next edit, held or not, replaces it.
 */
export async function updateComment(
  em: EntityManager,
  projectId: string,
  feedbackId: string,
  commentId: string,
  change: { content?: string | undefined; pinned?: boolean | undefined },
  actor: CommentActor,
): Promise<UpdatedComment | Missing> {
  if (change.pinned !== undefined && !actor.secret) throw new Forbidden(ERROR_MESSAGES.teamCommentRequiresSecretKey);
  requireAuthorOrSecret(actor);
  return transaction(em, async (tx) => {
    const sql = transactionSql(tx);
    // Pinning alone is the team's business and takes no author; an edit follows the author's rules.
    const pinOnly = change.content === undefined;
    const byAuthor = change.content !== undefined && actor.endUserId !== undefined;
    if (byAuthor) await sql.query('', LOCK_HELD_EDIT, [commentId, projectId]);
    const comment = await lockForChange(tx, projectId, feedbackId, commentId, pinOnly ? { secret: true } : actor, pinOnly);
    if (typeof comment === 'string') return comment;
    let changed = false;
    let held: HoldReason | null = null;
    if (byAuthor && change.content !== undefined) {
      const [author] = await sql.query<{ blocked: boolean }>('', COMMENT_AUTHOR_BLOCKED, [projectId, commentId]);
      if (author?.blocked) throw postingBlocked();
      await sql.query('', DROP_HELD_EDIT, [commentId]);
      // The author is an identified end user: only the policy's `all` and its links hold them.
      if (!actor.secret && actor.moderation && change.content !== comment.content) held = holdReason(actor.moderation, true, [change.content]);
      if (held) await sql.query('', HOLD_EDIT, [commentId, projectId, change.content, held]);
    }
    if (!held && change.content !== undefined && change.content !== comment.content) {
      await sql.query('', EDIT_COMMENT, [commentId, change.content]);
      changed = true;
    }
    if (change.pinned !== undefined) {
      if (!comment.is_team || comment.is_internal) {
        throw InvalidInput.field('pinned', 'Only a team comment that is not an internal note can be pinned');
      }
      changed = (await pin(tx, projectId, feedbackId, commentId, change.pinned)) || changed;
    }
    if (changed) await sql.query('', COMMENT_UPDATED_EVENT, [commentId, projectId]);
    const read = commentById(actor.secret);
    const [row] = await sql.query<{ comment: string }>('', read.text, [commentId, feedbackId]);
    const view = JSON.parse(row!.comment) as CommentView;
    return held ? { comment: view, held: { reason: held } } : { comment: view };
  });
}

/** Pins (the item's one pinned comment: another loses it) or unpins a comment; whether it changed. */
async function pin(tx: EntityManager, projectId: string, feedbackId: string, commentId: string, pinned: boolean): Promise<boolean> {
  const sql = transactionSql(tx);
  if (pinned) {
    const [unpinned] = await sql.query<{ id: string }>('', `${UNPIN_OTHERS} returning id`, [feedbackId, commentId]);
    if (unpinned) await sql.query('', COMMENT_UPDATED_EVENT, [unpinned.id, projectId]);
  }
  const rows = await sql.query<{ id: string }>('', `${SET_PINNED} returning id`, [commentId, pinned]);
  return rows.length > 0;
}

/** What deleting a comment found: the item's comment count after it and the replies that went with it, or which of the two is missing. */
export type DeletedComment = { commentCount: number; repliesDeleted: number } | Missing;

/**
 * Deletes a comment with its replies and counts the visible ones out, in one transaction; writes
 * `comment.deleted`. `actor` defaults to a secret key without an end user (the team), which may
 * delete any comment, its thread's internal notes with it.
 *
 * An author's delete (`endUserId`, with either key) never takes the team's notes (issue 49): they
 * stay on the item (KEEP_NOTES), each moved note sends `comment.updated` (internal, so only to the
 * endpoints that include notes), and the author learns nothing of them: not in the answer, not in
 * `repliesDeleted`. In the event, `repliesDeleted` counts only the replies every receiver of it may
 * know of: a visible comment's visible replies, never a note that went with it.
 */
export async function deleteComment(em: EntityManager, projectId: string, feedbackId: string, commentId: string, actor: CommentActor = { secret: true }): Promise<DeletedComment> {
  requireAuthorOrSecret(actor);
  return transaction(em, async (tx) => {
    const comment = await lockForChange(tx, projectId, feedbackId, commentId, actor, true);
    if (typeof comment === 'string') return comment;
    const sql = transactionSql(tx);
    const kept = actor.endUserId !== undefined && !comment.is_internal ? await sql.query<{ id: string }>('', KEEP_NOTES, [commentId]) : [];
    const gone = await sql.query<{ id: string; is_internal: boolean }>('', DELETE_THREAD, [commentId]);
    const { commentCount } = await moveCounters(tx, feedbackId, { comments: -gone.filter((row) => !row.is_internal).length });
    // After the count moved (each event shows the count as it commits), before the delete's event:
    // a receiver that drops a deleted comment's replies has moved these already.
    for (const note of kept.map((row) => row.id).sort()) await sql.query('', COMMENT_UPDATED_EVENT, [note, projectId]);
    const replies = gone.filter((row) => row.id !== commentId);
    // A note's replies are notes too, and its event goes only where notes do: there all of them count.
    const repliesSeen = (seesNotes: boolean) => replies.filter((row) => seesNotes || !row.is_internal).length;
    const data = {
      feedback: { id: feedbackId, commentCount },
      comment: { id: commentId, parentId: comment.parent_id, internal: comment.is_internal, isTeam: comment.is_team, externalId: comment.external_id },
      repliesDeleted: repliesSeen(comment.is_internal),
    };
    await sql.query('', COMMENT_DELETED_EVENT, [projectId, JSON.stringify(data)]);
    return { commentCount, repliesDeleted: repliesSeen(actor.secret) };
  });
}

/** A comment (as a secret key sees it) and its previous contents, oldest first; undefined when the item has no such comment. */
export async function commentHistory(em: EntityManager, projectId: string, feedbackId: string, commentId: string): Promise<CommentHistory | Missing> {
  return transaction(em, async (tx) => {
    const sql = transactionSql(tx);
    const [item] = await sql.query('', 'select 1 from feedback where id = $1::uuid and project_id = $2::uuid', [feedbackId, projectId]);
    if (!item) return 'no-item';
    const [row] = await sql.query<{ comment: string }>('', commentById(true).text, [commentId, feedbackId]);
    if (!row) return 'no-comment';
    const [revisions] = await sql.query<{ revisions: string }>('', COMMENT_REVISIONS, [commentId]);
    return { comment: JSON.parse(row.comment) as CommentView, revisions: JSON.parse(revisions!.revisions) as CommentRevision[] };
  });
}

/** The refusal of a change that found nothing. */
export function missing(what: Missing): NotFound {
  return what === 'no-comment' ? commentNotFound() : feedbackNotFound();
}
