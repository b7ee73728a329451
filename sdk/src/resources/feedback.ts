import type { FeedbackStatus, FeedbackType, SortBy } from '../contract/enums.js';
import {
  PAGE_SIZE_MAX,
  type CreateFeedbackRequest,
  type FeedbackDetail,
  type FeedbackListItem,
  type PaginatedFeedback,
  type SimilarFeedbackItem,
} from '../contract/feedback.js';
import type { RequestOptions, Transport } from '../transport.js';

/** Filters, order and page of `feedback.list` (spec 4.3). Parameters left `undefined` are not sent. */
export interface ListFeedbackParams {
  /** Only items with this status, or with any of these statuses. */
  status?: FeedbackStatus | FeedbackStatus[];
  /** Only items of this type, or of any of these types. */
  type?: FeedbackType | FeedbackType[];
  /** Case-insensitive text to find in the title or the description. */
  search?: string;
  /** `newest` (the server's default), `oldest`, `votes` or `comments` (most first). */
  sortBy?: SortBy;
  /** The page to return, from 1 (the default). */
  page?: number;
  /** Items per page, 1 to 100; the server's default is 20. */
  limit?: number;
}

/** Options of `feedback.similar`. Options left `undefined` are not sent. */
export interface SimilarFeedbackParams {
  /** How many items at most, 1 to 10; the server's default is 5. */
  limit?: number;
  /** Only items with this status, or with any of these statuses; every status when left out. */
  status?: FeedbackStatus | FeedbackStatus[];
  /** The end user (external id) whose votes each item's `userHasVoted` reports. */
  endUserId?: string;
}

/** Feedback items, as `client.feedback`. */
export class FeedbackResource {
  readonly #transport: Transport;

  /** @internal FeedbackClient builds this; use `client.feedback`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Submits a feedback item. It starts as `new`, with `voteCount` 1 (submitting counts as the
   * submitter's vote); `type` defaults to `idea`; without `endUser` the submission is anonymous.
   * `POST /api/v1/feedback`.
   *
   * @throws BadRequestError when the input is invalid (`details.fieldErrors` says which field).
   * @example
   * const item = await client.feedback.create({ title: 'Export to CSV', type: 'idea', endUser: { externalId: 'user-42' } });
   */
  async create(input: CreateFeedbackRequest, options?: RequestOptions): Promise<FeedbackListItem> {
    const response = await this.#transport.call('createFeedback', { body: input }, options);
    return response.feedback;
  }

  /**
   * One page of feedback items, with filters, search and order. `GET /api/v1/feedback`.
   *
   * @example
   * const page = await client.feedback.list({ status: ['new', 'planned'], type: 'bug', sortBy: 'votes', limit: 50 });
   * console.log(`${page.total} items, page ${page.page} of ${page.totalPages}`);
   */
  async list(params: ListFeedbackParams = {}, options?: RequestOptions): Promise<PaginatedFeedback> {
    return this.#transport.call(
      'listFeedback',
      {
        query: {
          status: params.status,
          type: params.type,
          search: params.search,
          sortBy: params.sortBy,
          page: params.page,
          limit: params.limit,
        },
      },
      options,
    );
  }

  /**
   * Every matching item, page after page: the next page is fetched only when the loop reaches it,
   * and iteration stops after the last page (`totalPages`) or at an empty page. Pages hold
   * `limit` items (default 100, the largest page, for the fewest requests). An item that moves to a
   * later page while you iterate (new items pushing it down) is yielded only once.
   *
   * @example
   * for await (const item of client.feedback.listAll({ status: 'planned' })) console.log(item.title);
   */
  async *listAll(params: Omit<ListFeedbackParams, 'page'> = {}, options?: RequestOptions): AsyncIterableIterator<FeedbackListItem> {
    const seen = new Set<string>();
    const limit = params.limit ?? PAGE_SIZE_MAX;
    for (let page = 1; ; page++) {
      const result = await this.list({ ...params, limit, page }, options);
      for (const item of result.items) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        yield item;
      }
      if (result.items.length === 0 || page >= result.totalPages) return;
    }
  }

  /**
   * The items whose titles are closest to `title`, closest first, each with its `similarity`
   * (0 to 1, trigram similarity of the titles): show them while an end user writes a title, so
   * that they vote on an existing item instead of posting a duplicate. Items that share no word
   * with the title are never returned. `GET /api/v1/feedback/similar`.
   *
   * @throws BadRequestError when the title is empty or longer than 200 characters, or `limit` is
   *   not 1 to 10.
   * @example
   * const similar = await client.feedback.similar('Dark theme please', { limit: 3, endUserId: 'user-42' });
   * for (const item of similar) console.log(`${Math.round(item.similarity * 100)}% ${item.title}`);
   */
  async similar(title: string, params: SimilarFeedbackParams = {}, options?: RequestOptions): Promise<SimilarFeedbackItem[]> {
    const response = await this.#transport.call(
      'similarFeedback',
      { query: { title, limit: params.limit, status: params.status, endUserId: params.endUserId } },
      options,
    );
    return response.items;
  }

  /**
   * One item with its comments (oldest first). With `endUserId`, `userHasVoted` says whether that
   * end user has voted on it. `GET /api/v1/feedback/:id`.
   *
   * @throws NotFoundError when the item does not exist.
   * @example
   * const item = await client.feedback.get(id, { endUserId: 'user-42' });
   */
  async get(id: string, params?: { endUserId?: string }, options?: RequestOptions): Promise<FeedbackDetail> {
    const response = await this.#transport.call('getFeedback', { params: { id }, query: { endUserId: params?.endUserId } }, options);
    return response.feedback;
  }
}
