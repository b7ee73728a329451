import type {
  ChangelogEntry,
  ChangelogList,
  CreateChangelogRequest,
  PublishChangelogRequest,
  UpdateChangelogRequest,
} from '../contract/changelog.js';
import type { RequestOptions, Transport } from '../transport.js';

/**
 * The project's changelog, as `client.changelog` (docs/changelog.md). `list` works with any key
 * (a public key sees the published entries); the other calls need a secret key (`sk_`).
 */
export class ChangelogResource {
  readonly #transport: Transport;

  /** @internal FeedbackClient builds this; use `client.changelog`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Writes an entry: a draft, published now (`publish: true`) or at `publishAt`. `links` are the
   * ids of the items it ships; `complete: true` moves them to `completed` on publishing.
   * `POST /api/v1/changelog`.
   *
   * @example
   * const entry = await client.changelog.create({ title: 'Dark mode', body: 'It is **here**.', links: [itemId], publish: true, complete: true });
   */
  async create(input: CreateChangelogRequest, options?: RequestOptions): Promise<ChangelogEntry> {
    return (await this.#transport.call('createChangelog', { body: input }, options)).entry;
  }

  /** Changes an entry's title, body or links (`links` replaces the list). `PATCH /api/v1/changelog/:entryId`. */
  async update(id: string, changes: UpdateChangelogRequest, options?: RequestOptions): Promise<ChangelogEntry> {
    return (await this.#transport.call('updateChangelog', { params: { entryId: id }, body: changes }, options)).entry;
  }

  /**
   * Publishes an entry now, or schedules it (`publishAt`). An entry already published is left as
   * it is. `POST /api/v1/changelog/:entryId/publish`.
   */
  async publish(id: string, input: PublishChangelogRequest = {}, options?: RequestOptions): Promise<ChangelogEntry> {
    return (await this.#transport.call('publishChangelog', { params: { entryId: id }, body: input }, options)).entry;
  }

  /** Deletes an entry; its items stay. `DELETE /api/v1/changelog/:entryId`. */
  async delete(id: string, options?: RequestOptions): Promise<{ id: string; deleted: true }> {
    return this.#transport.call('deleteChangelog', { params: { entryId: id } }, options);
  }

  /** One page of entries, newest publication first (a secret key also sees drafts, first, and scheduled ones). `GET /api/v1/changelog`. */
  async list(query: { page?: number; limit?: number } = {}, options?: RequestOptions): Promise<ChangelogList> {
    return this.#transport.call('listChangelog', { query: { page: query.page, limit: query.limit } }, options);
  }
}
