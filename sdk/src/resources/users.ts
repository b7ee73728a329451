import type { ErasedContent, EraseUserResult, UserExport } from '../contract/user-data.js';
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

  /**
   * Erases the end user with this `externalId` (a secret key only): their profile and votes are
   * deleted (each vote uncounted from its item), their submissions and comments are kept without
   * them (an item reads as anonymous, a comment is signed "Deleted user") or, with
   * `content: 'delete'`, deleted; the `user.erased` webhook event goes out. A person the project
   * does not hold (never seen, or erased before) answers zero counts: erasing again is harmless.
   * `DELETE /api/v1/users/:externalId`.
   *
   * @returns Whether anything was held, and what was removed or anonymised, per kind.
   * @throws PermissionDeniedError with a public key.
   * @example
   * const { counts } = await client.users.erase('user-42');
   */
  async erase(externalId: string, input: { content?: ErasedContent } = {}, options?: RequestOptions): Promise<EraseUserResult> {
    return this.#transport.call('eraseUser', { params: { externalId }, query: input.content ? { content: input.content } : {} }, options);
  }

  /**
   * Everything stored about the end user with this `externalId`, as one JSON document (a secret
   * key only): the profile (metadata included), their submissions with their status history,
   * their votes and their comments. `GET /api/v1/users/:externalId/export`.
   *
   * @throws NotFoundError "End user not found" when the project holds no such person.
   * @example
   * await writeFile('user-42.json', JSON.stringify(await client.users.export('user-42'), null, 2));
   */
  async export(externalId: string, options?: RequestOptions): Promise<UserExport> {
    return this.#transport.call('exportUser', { params: { externalId } }, options);
  }
}
