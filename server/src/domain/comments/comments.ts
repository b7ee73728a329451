import { END_USER_COMMENT_MAX_LENGTH, ERROR_MESSAGES, type Comment, type EndUserInput } from '@feedbackd/sdk/contract';
import type { Statements } from '../../db/pool.js';
import { feedbackNotFound, Forbidden, InvalidInput, isItemGone } from '../errors.js';
import { CREATE_COMMENT } from './comments.sql.js';
import { postingBlocked } from '../moderation/hold-reason.js';

/*
 * A new comment (docs/api.md, "Comments"), the one implementation: the API's POST .../comments
 * for either kind of key, the team's pages and the operator's service (domain/comments/comments.service.ts,
 * which adds the pin) all run CREATE_COMMENT, in one round trip and without the ORM.
 */

/** Who writes: an end user (upserted as identify does), the team under a display name, or an anonymous caller. */
export type NewCommentAuthor = { kind: 'user'; endUser: EndUserInput } | { kind: 'team'; name: string } | { kind: 'anonymous' };

/** A comment to add to item `item` of project `project`. */
export interface NewComment {
  project: string;
  item: string;
  content: string;
  author: NewCommentAuthor;
  /** The comment answered; a reply to a reply joins its top-level comment. */
  parentId?: string | null;
  /** A private note of the team (never shown to a public key nor counted). */
  internal?: boolean;
  /** Whether the caller holds a secret key: it may then reply under an internal note, and sees `internal` in the answer. */
  secret: boolean;
  /** An anonymous caller's voter key (domain/votes/votes.ts): what a block of the team's names (docs/moderation.md). */
  voterKey?: string | undefined;
}

/** The new comment, as a secret key sees it (`internal` included), and the item's comment count after it. */
export interface CreatedComment {
  comment: Comment;
  commentCount: number;
}

/**
 * Adds a comment with one statement on `sql` (the pool, or a transaction's). Throws the domain's
 * refusals (domain/errors.ts): NotFound for an item not in the project, InvalidInput for a
 * parentId that names no comment of the item the caller may see, Forbidden for an anonymous
 * comment where the project does not allow them or an author the team blocked.
 */
export async function createComment(sql: Statements, input: NewComment): Promise<CreatedComment> {
  const { author } = input;
  return runCommentStatement(sql, CREATE_COMMENT, [
    input.item,
    input.project,
    input.content,
    author.kind === 'user' ? author.endUser.externalId : null,
    author.kind === 'user' ? JSON.stringify(author.endUser) : null,
    author.kind === 'team' ? author.name : null,
    input.parentId ?? null,
    input.internal ?? false,
    input.secret,
    input.voterKey ?? null,
  ]);
}

/**
 * Runs a statement that writes a comment (CREATE_COMMENT, or moderation's HOLD_COMMENT) and turns
 * its row into the API's answers: the comment as written, or why nothing was (NotFound, InvalidInput, Forbidden).
 */
export async function runCommentStatement(sql: Statements, statement: { name: string; text: string }, values: unknown[]): Promise<CreatedComment> {
  let row: { item_found: boolean; parent_found: boolean; anonymous_refused: boolean; blocked: boolean; comment: string | null; comment_count: number | null } | undefined;
  try {
    [row] = await sql.query<NonNullable<typeof row>>(statement.name, statement.text, values);
  } catch (error) {
    // The item (or the parent) was deleted while the statement ran: as if the comment came a moment later.
    throw isItemGone(error) ? feedbackNotFound() : error;
  }
  if (!row?.item_found) throw feedbackNotFound();
  if (!row.parent_found) throw InvalidInput.field('parentId', 'parentId must be the id of a comment of this item');
  if (row.anonymous_refused) throw new Forbidden(ERROR_MESSAGES.anonymousCommentsOff);
  if (row.blocked || !row.comment) throw postingBlocked();
  return { comment: JSON.parse(row.comment) as Comment, commentCount: row.comment_count! };
}

/** The comment as a public key may see it: without `internal` (its answer's shape is the detail's). */
export function publicComment(comment: Comment): Comment {
  const { internal: _internal, ...rest } = comment;
  return rest;
}

/** A public key's content limit (the contract's schema checks the secret key's, the larger). */
export function checkEndUserContent(content: string): void {
  if (content.length > END_USER_COMMENT_MAX_LENGTH) {
    throw InvalidInput.field('content', `Content must be at most ${END_USER_COMMENT_MAX_LENGTH} characters`);
  }
}
