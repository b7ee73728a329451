import {
  END_USER_TOKEN_HEADER,
  type AddCommentRequest,
  type AddCommentResult,
  type CommentHistory,
  type DeleteCommentResult,
  type UpdateCommentRequest,
} from '../contract/comments.js';
import type { Comment } from '../contract/feedback.js';
import type { HoldReason } from '../contract/moderation.js';
import type { RequestOptions, Transport } from '../transport.js';

/**
 * The conversation on an item, as `client.comments` (docs/api.md, "Comments"). With a public key
 * an end user comments, replies, and edits or deletes their own comments until the team has
 * replied; with a secret key the team also comments, writes internal notes, pins its answer,
 * deletes any comment and reads a comment's edits.
 */
export class CommentsResource {
  readonly #transport: Transport;

  /** @internal FeedbackClient builds this; use `client.comments`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Comments on an item, or replies to a comment with `parentId` (a reply to a reply joins the
   * same thread). `POST /api/v1/feedback/:id/comments`.
   *
   * @returns The new comment, and the item's `commentCount` after it (internal notes are not counted); with `held` when the project holds it for its team (docs/moderation.md), unseen and uncounted until approved.
   * @throws BadRequestError for empty or too long content (4,000 characters for an end user), or a
   *   `parentId` that is not a comment of this item; PermissionDeniedError for `team`, `internal` or
   *   `pin` with a public key, or an anonymous comment where the project does not allow them.
   * @example
   * const { comment } = await client.comments.create(itemId, { content: 'Same here!', endUser: { externalId: 'user-42' } });
   * await client.comments.create(itemId, { content: 'Thanks', endUser: { externalId: 'user-7' }, parentId: comment.id });
   */
  async create(id: string, input: AddCommentRequest, options?: RequestOptions): Promise<AddCommentResult & { held?: { reason: HoldReason } }> {
    return this.#transport.call('addComment', { params: { id }, body: input }, options);
  }

  /**
   * An item's comments, the pinned answer first and then oldest first (a secret key also sees
   * internal notes). `GET /api/v1/feedback/:id/comments`.
   */
  async list(id: string, options?: RequestOptions): Promise<Comment[]> {
    return (await this.#transport.call('listComments', { params: { id } }, options)).comments;
  }

  /**
   * Edits a comment (`content`), keeping what it said before in its history; with a secret key,
   * pins or unpins a team comment (`pinned`). An end user's edit names them with `endUserId`; with
   * a public key it also needs `userToken`, the end user's token signed by your backend with the
   * project's identity secret (`signBoardToken` of `@feedbackd/sdk/board`), a new one per call:
   * an externalId is published with every comment, so it proves nothing by itself.
   * `PATCH /api/v1/feedback/:id/comments/:commentId`.
   *
   * @returns The comment as everyone reads it; with `held` when the project holds the end user's
   *   edit for its team (docs/moderation.md): the comment then keeps its published text until the
   *   team approves the edit.
   * @throws PermissionDeniedError when the author is not proved (no or a refused `userToken` with a
   *   public key), `endUserId` is not the author, the team has replied to the comment, or the team
   *   blocked the author.
   * @example
   * import { signBoardToken } from '@feedbackd/sdk/board';
   * const userToken = signBoardToken({ project: 'acme', secret: process.env.FEEDBACK_BOARD_SECRET!, user: { externalId: 'user-42' } });
   * await client.comments.update(itemId, commentId, { content: 'Same here, on Android too', endUserId: 'user-42', userToken });
   */
  async update(id: string, commentId: string, input: UpdateCommentRequest & { userToken?: string }, options?: RequestOptions): Promise<Comment & { held?: { reason: HoldReason } }> {
    const { userToken, ...body } = input;
    const result = await this.#transport.call('updateComment', { params: { id, commentId }, body, headers: tokenHeader(userToken) }, options);
    return 'held' in result ? { ...result.comment, held: result.held } : result.comment;
  }

  /**
   * Deletes a comment and its replies: by its author (`endUserId`, and with a public key their
   * `userToken`, as for `update`) until the team has replied, or any comment with a secret key
   * (leave both out). `DELETE /api/v1/feedback/:id/comments/:commentId`.
   *
   * @returns The comment's id, how many replies went with it, and the item's `commentCount` after it.
   */
  async delete(id: string, commentId: string, params: { endUserId?: string; userToken?: string } = {}, options?: RequestOptions): Promise<DeleteCommentResult> {
    return this.#transport.call('deleteComment', { params: { id, commentId }, query: { endUserId: params.endUserId }, headers: tokenHeader(params.userToken) }, options);
  }

  /** A comment and its previous contents, oldest first (secret key). `GET /api/v1/feedback/:id/comments/:commentId/history`. */
  async history(id: string, commentId: string, options?: RequestOptions): Promise<CommentHistory> {
    return this.#transport.call('commentHistory', { params: { id, commentId } }, options);
  }
}

/** The end user's token as its header (END_USER_TOKEN_HEADER), when given. */
function tokenHeader(userToken: string | undefined): Record<string, string> | undefined {
  return userToken === undefined ? undefined : { [END_USER_TOKEN_HEADER]: userToken };
}
