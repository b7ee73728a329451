import type { EndUserInput } from '../contract/users.js';
import type { ListSubscribersQuery, SubscriberList, SubscriptionState } from '../contract/subscriptions.js';
import type { RequestOptions, Transport } from '../transport.js';

/**
 * Who is told when an item moves, as `client.subscriptions` (docs/notifications.md). Taking part
 * (submitting, voting, commenting as an end user) subscribes by itself; these are the explicit
 * choices, and a secret key's list of an item's subscribers.
 */
export class SubscriptionsResource {
  readonly #transport: Transport;

  /** @internal FeedbackClient builds this; use `client.subscriptions`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Subscribes `endUser` (created or updated like `users.identify`) to item `id` without a vote;
   * undoes an earlier unsubscribe from it. `POST /api/v1/feedback/:id/subscription`.
   *
   * @throws NotFoundError when the item does not exist.
   * @example
   * await client.subscriptions.subscribe(id, { externalId: 'user-42' });
   */
  async subscribe(id: string, endUser: EndUserInput, options?: RequestOptions): Promise<SubscriptionState> {
    return this.#transport.call('subscribe', { params: { id }, body: { endUser } }, options);
  }

  /**
   * Unsubscribes the end user `endUserId` from item `id`, or, without `id` (null), from every item
   * of the project. Either sticks: voting or commenting again does not subscribe them back.
   * `POST /api/v1/feedback/:id/unsubscribe`, `POST /api/v1/unsubscribe`.
   *
   * @throws NotFoundError when the item, or the end user, does not exist.
   * @example
   * await client.subscriptions.unsubscribe(id, 'user-42');
   * await client.subscriptions.unsubscribe(null, 'user-42'); // the whole project
   */
  async unsubscribe(id: string | null, endUserId: string, options?: RequestOptions): Promise<SubscriptionState | { unsubscribed: true }> {
    if (id === null) return this.#transport.call('unsubscribeAll', { body: { endUserId } }, options);
    return this.#transport.call('unsubscribe', { params: { id }, body: { endUserId } }, options);
  }

  /**
   * Whether the end user `endUserId` is told when item `id` moves. `GET /api/v1/feedback/:id/subscription`.
   *
   * @throws NotFoundError when the item does not exist.
   * @example
   * const { subscribed } = await client.subscriptions.get(id, 'user-42');
   */
  async get(id: string, endUserId: string, options?: RequestOptions): Promise<SubscriptionState> {
    return this.#transport.call('getSubscription', { params: { id }, query: { endUserId } }, options);
  }

  /**
   * A page of item `id`'s subscribers who are told when it moves, oldest first, each with why
   * (`reasons`). Secret key only. `GET /api/v1/feedback/:id/subscribers`.
   *
   * @throws NotFoundError when the item does not exist; PermissionError with a public key.
   * @example
   * const { items, total } = await client.subscriptions.list(id, { limit: 100 });
   */
  async list(id: string, query?: ListSubscribersQuery, options?: RequestOptions): Promise<SubscriberList> {
    return this.#transport.call('listSubscribers', { params: { id }, query: { page: query?.page, limit: query?.limit } }, options);
  }
}
