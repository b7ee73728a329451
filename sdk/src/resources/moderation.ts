import type { ApproveHeldResult, HeldPost, PostingBlock, RejectHeldResult, UnblockResult } from '../contract/moderation.js';
import type { RequestOptions, Transport } from '../transport.js';

/**
 * The project's moderation queue, as `client.moderation` (docs/moderation.md; a secret key only).
 * Where the project holds posts (`feedback board moderation`), an end user's submission or comment
 * answers 202 and waits here, invisible to every public read, until the team decides.
 */
export class ModerationResource {
  readonly #transport: Transport;

  /** @internal FeedbackClient builds this; use `client.moderation`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * The held submissions and comments, oldest first. `GET /api/v1/moderation`.
   *
   * @example
   * for (const post of await client.moderation.list()) console.log(post.kind, post.title ?? post.content);
   */
  async list(options?: RequestOptions): Promise<HeldPost[]> {
    return (await this.#transport.call('listHeld', {}, options)).items;
  }

  /**
   * Approves held posts (at most 100): each becomes public with the id it was given, and
   * `feedback.created` or `comment.created` goes out once. `POST /api/v1/moderation/approve`.
   *
   * @returns The posts approved, and the ids that were not held (decided already, or unknown).
   */
  async approve(ids: readonly string[], options?: RequestOptions): Promise<ApproveHeldResult> {
    return this.#transport.call('approveHeld', { body: { ids: [...ids] } }, options);
  }

  /**
   * Rejects held posts (at most 100): each is deleted; with `block`, its author can no longer
   * submit or comment (403): an end user until the block is lifted, an anonymous caller's address
   * for 30 days; `blockDays` (1 to 365) sets another length for either. `POST /api/v1/moderation/reject`.
   *
   * @example
   * await client.moderation.reject([spam.id], { block: true });
   */
  async reject(ids: readonly string[], input: { block?: boolean; blockDays?: number } = {}, options?: RequestOptions): Promise<RejectHeldResult> {
    return this.#transport.call('rejectHeld', { body: { ids: [...ids], block: input.block, blockDays: input.blockDays } }, options);
  }

  /**
   * The blocks in force, newest first (at most 500), each with the id `unblock` takes, whom it
   * names (`scope`: an end user, or an anonymous caller's address), the start of the post that
   * made it and when it ends (`expiresAt`, null: when lifted). `GET /api/v1/moderation/blocks`.
   *
   * @example
   * for (const block of await client.moderation.blocks()) console.log(block.id, block.author?.externalId ?? 'an address', block.expiresAt);
   */
  async blocks(options?: RequestOptions): Promise<PostingBlock[]> {
    return (await this.#transport.call('listBlocks', {}, options)).items;
  }

  /**
   * Lifts a block: its author may post again at once. `DELETE /api/v1/moderation/blocks/:blockId`.
   *
   * @throws NotFoundError when no block in force has that id (lifted already, or expired).
   */
  async unblock(blockId: string, options?: RequestOptions): Promise<UnblockResult> {
    return this.#transport.call('unblock', { params: { blockId } }, options);
  }
}
