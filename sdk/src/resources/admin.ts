import type { DeleteFeedbackResult, MergeFeedbackResult, UpdateFeedbackRequest } from '../contract/admin.js';
import type { AddCommentRequest, AddCommentResult, DeleteCommentResult } from '../contract/comments.js';
import type { BoardSettings, UpdateBoardRequest } from '../contract/board.js';
import type { FeedbackDetail } from '../contract/feedback.js';
import type { CreateSignInLinkRequest, SignInLink } from '../contract/team.js';
import type { RequestOptions, Transport } from '../transport.js';

/**
 * The operator's operations, as `client.admin`: extensions beyond the spec that need a secret key
 * (`sk_`, from `feedback keys create --secret`). With a public key each one throws
 * PermissionDeniedError (403). Each is one transaction on the server and keeps every counter exact.
 */
export class AdminResource {
  readonly #transport: Transport;

  /** @internal FeedbackClient builds this; use `client.admin`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Changes an item's status, title, description or type (fields left out keep their values;
   * `description: null` clears it). A status change is recorded in the item's `statusHistory`
   * with your key and the optional `actor`; setting the status it already has records nothing.
   * `PATCH /api/v1/feedback/:id`.
   *
   * @returns The item as a secret key reads it, `statusHistory` included.
   * @throws NotFoundError when the item does not exist; BadRequestError for invalid input.
   * @example
   * const item = await client.admin.update(id, { status: 'planned', actor: 'Ada' });
   */
  async update(id: string, changes: UpdateFeedbackRequest, options?: RequestOptions): Promise<FeedbackDetail> {
    const response = await this.#transport.call('updateFeedback', { params: { id }, body: changes }, options);
    return response.feedback;
  }

  /**
   * Deletes an item with its votes, comments and status history. `DELETE /api/v1/feedback/:id`.
   * A retry of this call after a lost response gets the first answer again (the call carries an
   * `Idempotency-Key`); a new call for an item already deleted throws NotFoundError.
   *
   * @example
   * await client.admin.delete(id);
   */
  async delete(id: string, options?: RequestOptions): Promise<DeleteFeedbackResult> {
    return this.#transport.call('deleteFeedback', { params: { id } }, options);
  }

  /**
   * Comments on an item as the team (`team: { name }`, shown with `isTeam: true`) or as an end user
   * (`endUser`, created or updated as by `users.identify`). `POST /api/v1/feedback/:id/comments`.
   *
   * @returns The new comment, and the item's `commentCount` after it.
   * @deprecated Use `client.comments.create`, which also replies, writes internal notes and pins.
   * @example
   * await client.admin.addComment(id, { content: 'Planned for March.', team: { name: 'Support' } });
   */
  async addComment(id: string, input: AddCommentRequest, options?: RequestOptions): Promise<AddCommentResult> {
    return this.#transport.call('addComment', { params: { id }, body: input }, options);
  }

  /**
   * Deletes a comment of an item. `DELETE /api/v1/feedback/:id/comments/:commentId`.
   *
   * @returns The comment's id and the item's `commentCount` after it.
   * @throws NotFoundError "Feedback not found" or "Comment not found".
   * @deprecated Use `client.comments.delete`.
   */
  async deleteComment(id: string, commentId: string, options?: RequestOptions): Promise<DeleteCommentResult> {
    return this.#transport.call('deleteComment', { params: { id, commentId } }, options);
  }

  /**
   * Merges the duplicate `duplicateId` into `intoId`: its votes move over (a voter who voted on
   * both counts once), its comments move over, and the duplicate is deleted (it answers 404
   * afterwards). `POST /api/v1/feedback/:id/merge`.
   *
   * @returns The target as a secret key reads it, and what moved.
   * @throws BadRequestError when both ids are the same; NotFoundError when either item does not exist.
   * @example
   * const { feedback, merged } = await client.admin.merge(duplicateId, originalId);
   */
  async merge(duplicateId: string, intoId: string, options?: RequestOptions): Promise<MergeFeedbackResult> {
    return this.#transport.call('mergeFeedback', { params: { id: duplicateId }, body: { intoId } }, options);
  }

  /**
   * A one-time sign-in link to the team's pages (`/team`: the inbox) of your key's project, valid
   * for 10 minutes and usable once; `feedback open` calls this. `POST /api/v1/team/sign-in-links`.
   * `name` (optional) is who it is for: the session signs replies and status changes with it.
   * Sessions opened through it end when your key is revoked.
   *
   * @returns The link as a path on the server (put the server's address in front) and when it expires.
   * @example
   * const { path } = await client.admin.signInLink({ name: 'Ada' });
   * console.log(new URL(path, 'https://feedback.example.com').href);
   */
  async signInLink(input: CreateSignInLinkRequest = {}, options?: RequestOptions): Promise<SignInLink> {
    return this.#transport.call('createSignInLink', { body: input }, options);
  }

  /**
   * Your key's project's public board: on or off, its brand (name, description, logo, accent
   * colour, default order, default language) and who may frame it. `GET /api/v1/board`.
   */
  async board(options?: RequestOptions): Promise<BoardSettings> {
    return this.#transport.call('getBoard', {}, options);
  }

  /**
   * Changes the board's brand; a field left out keeps its value, `null` clears it.
   * `logo` is the image's bytes in base64 (PNG, JPEG, WebP or GIF, at most 256 KB; SVG is
   * refused); `accent` must read at 4.5:1 in the light theme (the 400 says the ratio and a darker
   * colour that does), and the dark theme's is derived from it. `locale` is the pages' language
   * when a reader chose none and their browser asks for none the board has (one of
   * BOARD_LOCALES; null: English). `PATCH /api/v1/board`.
   *
   * @throws BadRequestError naming the refused field (an unknown locale lists the supported ones).
   * @example
   * const logo = (await readFile('logo.png')).toString('base64');
   * await client.admin.updateBoard({ name: 'Acme', description: 'Tell us what to build next', accent: '#0a6640', logo, defaultSort: 'votes', locale: 'fr' });
   */
  async updateBoard(changes: UpdateBoardRequest, options?: RequestOptions): Promise<BoardSettings> {
    return this.#transport.call('updateBoard', { body: changes }, options);
  }
}
