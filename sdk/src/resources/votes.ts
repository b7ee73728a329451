import type { EndUserInput } from '../contract/users.js';
import type { VoteResult } from '../contract/votes.js';
import type { RequestOptions, Transport } from '../transport.js';

/** Votes on feedback items, as `client.votes`. */
export class VotesResource {
  readonly #transport: Transport;

  /** @internal FeedbackClient builds this; use `client.votes`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Toggles a vote on item `id`: adds the voter's vote, or removes it if there is one. With
   * `endUser` the voter is that end user (created or updated like `users.identify`); without it the
   * vote is anonymous and the server knows the voter by the caller's IP address.
   * `POST /api/v1/feedback/:id/vote`. Safe to retry: the call carries an `Idempotency-Key`, so a
   * retry after a lost response does not toggle twice.
   *
   * @returns `voted`: the new state; `voteCount`: the count after the change.
   * @throws NotFoundError when the item does not exist.
   * @example
   * const { voted, voteCount } = await client.votes.toggle(id, { endUser: { externalId: 'user-42' } });
   */
  async toggle(id: string, body?: { endUser?: EndUserInput }, options?: RequestOptions): Promise<VoteResult> {
    return this.#transport.call('toggleVote', { params: { id }, body: body ?? {} }, options);
  }

  /**
   * Whether the end user `endUserId` has voted on item `id`, and its vote count. Without
   * `endUserId` the check is made for the caller's IP address. `GET /api/v1/feedback/:id/vote`.
   *
   * @throws NotFoundError when the item does not exist.
   * @example
   * const { voted } = await client.votes.get(id, { endUserId: 'user-42' });
   */
  async get(id: string, params?: { endUserId?: string }, options?: RequestOptions): Promise<VoteResult> {
    return this.#transport.call('getVote', { params: { id }, query: { endUserId: params?.endUserId } }, options);
  }
}
