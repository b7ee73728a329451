import type { IdentifiedUser, IdentifyRequest } from '../contract/users.js';
import type { RequestOptions, Transport } from '../transport.js';

/** End users of your product, as `client.users`. */
export class UsersResource {
  readonly #transport: Transport;

  /** @internal FeedbackClient builds this; use `client.users`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Creates the end user with this `externalId`, or updates the existing one (fields you omit keep
   * their stored values; `null` clears one). `POST /api/v1/identify`.
   *
   * @example
   * const user = await client.users.identify({ externalId: 'user-42', name: 'Ada', email: 'ada@example.com' });
   */
  async identify(input: IdentifyRequest, options?: RequestOptions): Promise<IdentifiedUser> {
    const response = await this.#transport.call('identify', { body: input }, options);
    return response.user;
  }
}
