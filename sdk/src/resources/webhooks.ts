import { DEFAULT_TIMEOUT_MS } from '../contract/constants.js';
import type {
  CreateWebhookRequest,
  ListenWebhookRequest,
  PulledWebhookDelivery,
  PullWebhookDeliveriesRequest,
  ReportWebhookDeliveryRequest,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
} from '../contract/webhooks.js';
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

  /**
   * Makes a pull endpoint, as `feedback webhooks listen` does: its deliveries are made like any
   * endpoint's, but the server never sends them (it never connects to `forwardTo`, which is shown
   * as the endpoint's url); you pull them with {@link pull}, forward them yourself and report each
   * outcome with {@link reportOutcome}. Deleted by the server when not pulled for an hour.
   * `POST /api/v1/webhooks/listen`. Keep the returned secret: it signs what you pull.
   *
   * @example
   * const { webhook, secret } = await client.webhooks.listen({ forwardTo: 'http://localhost:4000/hooks' });
   */
  async listen(input: ListenWebhookRequest, options?: RequestOptions): Promise<WebhookWithSecret> {
    return this.#transport.call('listenWebhook', { body: input }, options);
  }

  /**
   * Claims the pull endpoint's due deliveries (at most `limit`, default 20), each with the body
   * and the signed headers to POST it with; with `waitSeconds` (up to 25) waits that long for one
   * when none is due. Report each outcome within two minutes, or it is handed out again.
   * `POST /api/v1/webhooks/:webhookId/pull`. Unless `options.timeoutMs` says otherwise, the call's
   * time limit is the wait plus the client's default (10 s).
   * @throws NotFoundError for an id that is not a pull endpoint of the project.
   */
  async pull(id: string, input: PullWebhookDeliveriesRequest = {}, options: RequestOptions = {}): Promise<PulledWebhookDelivery[]> {
    const timeoutMs = options.timeoutMs ?? (input.waitSeconds ? input.waitSeconds * 1000 + DEFAULT_TIMEOUT_MS : undefined);
    return (await this.#transport.call('pullWebhookDeliveries', { params: { webhookId: id }, body: input }, { ...options, timeoutMs })).items;
  }

  /**
   * Records what forwarding a pulled delivery came to (the receiver's status, or `statusCode: null`
   * with the `error`), and the server decides what follows as for a delivery it sent: a 2xx
   * succeeds, anything else is retried on the schedule, `410` disables the endpoint.
   * `POST /api/v1/webhooks/:webhookId/deliveries/:deliveryId/outcome`.
   * @returns the delivery with its attempts, as the log shows it.
   * @throws NotFoundError when the delivery is not under a pull's claim now (reported already, or the claim expired).
   */
  async reportOutcome(id: string, deliveryId: string, outcome: ReportWebhookDeliveryRequest, options?: RequestOptions): Promise<WebhookDelivery> {
    return (await this.#transport.call('reportWebhookDelivery', { params: { webhookId: id, deliveryId }, body: outcome }, options)).delivery;
  }
}
