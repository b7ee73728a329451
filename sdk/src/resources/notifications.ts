import type { ListNotificationsQuery, NotificationList, NotificationSettings } from '../contract/notifications.js';
import type { RequestOptions, Transport } from '../transport.js';

/**
 * The notifications' log, as `client.notifications` (docs/notifications.md): what subscribers were
 * told and where each one's mail stands. Secret key (`sk_`) only.
 */
export class NotificationsResource {
  readonly #transport: Transport;

  /** @internal FeedbackClient builds this; use `client.notifications`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * One page of notifications, newest first; `state` keeps one mail state. `GET /api/v1/notifications`.
   *
   * @example
   * const { items } = await client.notifications.list({ state: 'failed' });
   */
  async list(query: ListNotificationsQuery = {}, options?: RequestOptions): Promise<NotificationList> {
    return this.#transport.call('listNotifications', { query: { state: query.state, page: query.page, limit: query.limit } }, options);
  }

  /** Sends failed mail again: these ids, or every failed notification of the project. `POST /api/v1/notifications/retry`. */
  async retry(ids?: string[], options?: RequestOptions): Promise<{ retried: number }> {
    return this.#transport.call('retryNotifications', { body: ids === undefined ? {} : { ids } }, options);
  }

  /** Chooses a daily digest (`digest: true`) or a message per coalescing window. `PATCH /api/v1/notifications/settings`. */
  async settings(settings: NotificationSettings, options?: RequestOptions): Promise<NotificationSettings> {
    return this.#transport.call('updateNotificationSettings', { body: settings }, options);
  }
}
