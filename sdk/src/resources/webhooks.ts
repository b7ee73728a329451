import type { CreateWebhookRequest, UpdateWebhookRequest, Webhook, WebhookDelivery } from '../contract/webhooks.js';
import type { RequestOptions, Transport } from '../transport.js';

/** An endpoint and its signing secret (`whsec_...`), shown only when it is made or rotated. */
export interface WebhookWithSecret {
  webhook: Webhook;
  secret: string;
}

/**
 * The project's webhook endpoints, as `client.webhooks` (docs/webhooks.md). They need a secret
 * key (`sk_`): with a public key each call throws PermissionDeniedError (403).
 */
export class WebhooksResource {
  readonly #transport: Transport;

  /** @internal FeedbackClient builds this; use `client.webhooks`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Subscribes `url` to the project's events (`events`: the types it receives; absent, every
   * type). `POST /api/v1/webhooks`. Keep the returned secret: it is never shown again.
   *
   * @example
   * const { webhook, secret } = await client.webhooks.create({ url: 'https://example.com/hooks', events: ['feedback.created'] });
   */
  async create(input: CreateWebhookRequest, options?: RequestOptions): Promise<WebhookWithSecret> {
    return this.#transport.call('createWebhook', { body: input }, options);
  }

  /** The project's endpoints, oldest first. `GET /api/v1/webhooks`. */
  async list(options?: RequestOptions): Promise<Webhook[]> {
    return (await this.#transport.call('listWebhooks', {}, options)).items;
  }

  /** One endpoint. `GET /api/v1/webhooks/:webhookId`. @throws NotFoundError when the project has no such endpoint. */
  async get(id: string, options?: RequestOptions): Promise<Webhook> {
    return (await this.#transport.call('getWebhook', { params: { webhookId: id } }, options)).webhook;
  }

  /**
   * Changes an endpoint's URL, events (null: every type), description, format, or disables
   * (`enabled: false`) or enables it. `PATCH /api/v1/webhooks/:webhookId`.
   */
  async update(id: string, changes: UpdateWebhookRequest, options?: RequestOptions): Promise<Webhook> {
    return (await this.#transport.call('updateWebhook', { params: { webhookId: id }, body: changes }, options)).webhook;
  }

  /** Deletes an endpoint with its deliveries and their log. `DELETE /api/v1/webhooks/:webhookId`. */
  async delete(id: string, options?: RequestOptions): Promise<{ id: string; deleted: true }> {
    return this.#transport.call('deleteWebhook', { params: { webhookId: id } }, options);
  }

  /**
   * Gives an endpoint a new signing secret. The current one still signs (a second signature) for
   * `graceSeconds` (default a day), so a receiver can switch without losing a delivery.
   * `POST /api/v1/webhooks/:webhookId/rotate-secret`.
   */
  async rotateSecret(id: string, input: { graceSeconds?: number } = {}, options?: RequestOptions): Promise<WebhookWithSecret> {
    return this.#transport.call('rotateWebhookSecret', { params: { webhookId: id }, body: input }, options);
  }

  /**
   * Sends a signed `webhook.test` to the endpoint now and answers what came of it: the delivery
   * with its one attempt (status, time, error, the answer's start). Never retried.
   * `POST /api/v1/webhooks/:webhookId/test`.
   */
  async test(id: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return (await this.#transport.call('testWebhook', { params: { webhookId: id } }, options)).delivery;
  }

  /**
   * The endpoint's deliveries, newest first, each with every attempt: all, or those of one `state`
   * or one event. `GET /api/v1/webhooks/:webhookId/deliveries`.
   */
  async deliveries(id: string, query: { state?: WebhookDelivery['state']; eventId?: string; limit?: number } = {}, options?: RequestOptions): Promise<WebhookDelivery[]> {
    return (await this.#transport.call('listWebhookDeliveries', { params: { webhookId: id }, query }, options)).items;
  }

  /** Sends one delivery again, now, with the same `webhook-id`. `POST /api/v1/webhooks/deliveries/:deliveryId/redeliver`. */
  async redeliver(deliveryId: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return (await this.#transport.call('redeliverWebhookDelivery', { params: { deliveryId } }, options)).delivery;
  }

  /**
   * After an outage: queues again every failed delivery of the endpoint made since `since`.
   * `POST /api/v1/webhooks/:webhookId/recover`. @returns how many were queued.
   */
  async recover(id: string, since: Date | string, options?: RequestOptions): Promise<number> {
    const body = { since: since instanceof Date ? since.toISOString() : since };
    return (await this.#transport.call('recoverWebhook', { params: { webhookId: id }, body }, options)).requeued;
  }
}
