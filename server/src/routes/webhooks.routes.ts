import type Router from '@koa/router';
import { routes, WEBHOOK_ROTATION_GRACE_DEFAULT_SECONDS, type Webhook } from '@feedbackd/sdk/contract';
import { newWebhookSecret } from '@feedbackd/sdk/webhooks';
import type { AppContext, AppState } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { webhookNotFound } from '../domain/errors.js';
import { jsonReply, mount, reply, type MountOptions } from '../http/mount.js';
import { UUID } from '../db/uuid.js';
import { deliveryNotFound } from '../domain/errors.js';
import type { Logger } from '../logger.js';
import { TEST_DELIVERY, type ClaimedDelivery } from '../delivery/webhooks/deliveries.sql.js';
import {
  CREATE_ENDPOINT,
  DELETE_ENDPOINT,
  GET_DELIVERY,
  GET_ENDPOINT,
  LIST_DELIVERIES,
  LIST_ENDPOINTS,
  RECOVER,
  REDELIVER,
  ROTATE_SECRET,
  UPDATE_ENDPOINT,
} from '../domain/webhooks/endpoints.sql.js';
import { mountListenerRoutes } from './webhook-listeners.routes.js';
import type { WebhookWakeups } from '../delivery/webhooks/wake-ups.js';
import { checkWebhookUrl, webhookDispatcher } from '../delivery/webhooks/safe-target.js';
import { DEFAULT_TIMEOUT_MS, sendClaimed } from '../delivery/webhooks/attempts.js';

export interface WebhookRouteOptions {
  /** Allow endpoints on loopback and private networks (`serve --webhooks-allow-private`). */
  allowPrivate: boolean;
  /** Where a test delivery's failure to record is told. */
  logger: Logger;
  /** Aborted when the server stops: a pull waiting for deliveries answers at once. */
  stopping?: AbortSignal;
  /** What wakes the waiting pulls (wake-ups.ts). */
  wakeups: WebhookWakeups;
}

/**
 * The webhook endpoints' API (docs/webhooks.md): secret keys only (`auth: 'secret'` in the route
 * table). Statements in endpoints.sql.ts; the URL is checked against the private network here
 * (safe-target.ts), and again on the address each delivery connects to.
 */
export function mountWebhookRoutes(router: Router<AppState>, options: MountOptions, webhooks: WebhookRouteOptions): void {
  mount(router, routes.createWebhook, options, async ({ body }, ctx, sql) => {
    const url = checkedUrl(body.url, webhooks);
    const secret = newWebhookSecret();
    const [row] = await sql.query<{ body: string }>('', CREATE_ENDPOINT, [projectOf(ctx), url, body.events ?? null, body.description || null, body.format ?? 'standard', secret, body.includeInternal ?? false]);
    return jsonReply(routes.createWebhook, 201, `{"webhook":${row!.body},"secret":${JSON.stringify(secret)}}`);
  });

  mount(router, routes.listWebhooks, options, async (_input, ctx, sql) => {
    const [row] = await sql.query<{ body: string }>('', LIST_ENDPOINTS, [projectOf(ctx)]);
    return jsonReply(routes.listWebhooks, 200, `{"items":${row!.body}}`);
  });

  mount(router, routes.getWebhook, options, async ({ params }, ctx, sql) => {
    const [row] = await sql.query<{ body: string }>('', GET_ENDPOINT, [projectOf(ctx), params.webhookId]);
    if (!row) throw webhookNotFound();
    return jsonReply(routes.getWebhook, 200, `{"webhook":${row.body}}`);
  });

  mount(router, routes.updateWebhook, options, async ({ params, body }, ctx, sql) => {
    const url = body.url === undefined ? null : checkedUrl(body.url, webhooks);
    const description = body.description === undefined ? null : (body.description ?? '');
    const values = [projectOf(ctx), params.webhookId, url, body.events ?? null, description, body.format ?? null, body.enabled ?? null, body.events !== undefined, body.includeInternal ?? null];
    const [row] = await sql.query<{ body: string }>('', UPDATE_ENDPOINT, values);
    if (!row) throw webhookNotFound();
    return jsonReply(routes.updateWebhook, 200, `{"webhook":${row.body}}`);
  });

  mount(router, routes.deleteWebhook, options, async ({ params }, ctx, sql) => {
    const [row] = await sql.query<{ id: string }>('', DELETE_ENDPOINT, [projectOf(ctx), params.webhookId]);
    if (!row) throw webhookNotFound();
    return reply(200, { id: row.id, deleted: true as const });
  });

  mount(router, routes.rotateWebhookSecret, options, async ({ params, body }, ctx, sql) => {
    const secret = newWebhookSecret();
    const grace = body.graceSeconds ?? WEBHOOK_ROTATION_GRACE_DEFAULT_SECONDS;
    const [row] = await sql.query<{ body: string }>('', ROTATE_SECRET, [projectOf(ctx), params.webhookId, secret, grace]);
    if (!row) throw webhookNotFound();
    return jsonReply(routes.rotateWebhookSecret, 200, `{"webhook":${row.body},"secret":${JSON.stringify(secret)}}`);
  });

  // A test is sent by the request itself, through the same checked dispatcher and the same
  // record of the attempt as every delivery (attempts.ts), but never retried.
  let dispatcher: ReturnType<typeof webhookDispatcher> | undefined;
  mount(router, routes.testWebhook, options, async ({ params }, ctx) => {
    // On the pool, never in a request's transaction: the attempt may take 15 s, which no
    // transaction should be held open for (on the embedded database it would hold the session).
    const sql = options.sql;
    const [endpoint] = await sql.query<{ body: string }>('', GET_ENDPOINT, [projectOf(ctx), params.webhookId]);
    if (!endpoint) throw webhookNotFound();
    // The server never connects to a pull endpoint's URL (the developer's machine), not even for a test.
    if ((JSON.parse(endpoint.body) as Webhook).mode === 'pull') throw AppError.invalidInputMessage(PULL_ENDPOINT_NOT_SENT);
    const [claimed] = await sql.query<ClaimedDelivery & Record<string, unknown>>('', TEST_DELIVERY, [projectOf(ctx), params.webhookId]);
    if (!claimed) throw webhookNotFound();
    dispatcher ??= webhookDispatcher({ allowPrivate: webhooks.allowPrivate });
    await sendClaimed(sql, webhooks.logger, dispatcher, DEFAULT_TIMEOUT_MS, claimed, false);
    const [row] = await sql.query<{ body: string }>('', GET_DELIVERY, [projectOf(ctx), claimed.id]);
    return jsonReply(routes.testWebhook, 200, `{"delivery":${row!.body}}`);
  });

  mount(router, routes.listWebhookDeliveries, options, async ({ params, query }, ctx, sql) => {
    // An event id that is not a uuid names no event: an empty page, never a failing cast.
    if (query.eventId !== undefined && !UUID.test(query.eventId)) return jsonReply(routes.listWebhookDeliveries, 200, '{"items":[]}');
    const [row] = await sql.query<{ found: boolean; body: string }>('', LIST_DELIVERIES, [projectOf(ctx), params.webhookId, query.state ?? null, query.eventId ?? null, query.limit]);
    if (!row!.found) throw webhookNotFound();
    return jsonReply(routes.listWebhookDeliveries, 200, `{"items":${row!.body}}`);
  });

  mount(router, routes.recoverWebhook, options, async ({ params, body }, ctx, sql) => {
    const [found] = await sql.query<{ body: string }>('', GET_ENDPOINT, [projectOf(ctx), params.webhookId]);
    if (!found) throw webhookNotFound();
    const requeued = await sql.query<{ id: string }>('', RECOVER, [projectOf(ctx), params.webhookId, body.since]);
    return reply(200, { requeued: requeued.length });
  });

  mount(router, routes.redeliverWebhookDelivery, options, async ({ params }, ctx, sql) => {
    const [requeued] = await sql.query<{ id: string }>('', REDELIVER, [projectOf(ctx), params.deliveryId]);
    if (!requeued) throw deliveryNotFound();
    const [row] = await sql.query<{ body: string }>('', GET_DELIVERY, [projectOf(ctx), params.deliveryId]);
    return jsonReply(routes.redeliverWebhookDelivery, 200, `{"delivery":${row!.body}}`);
  });

  mountListenerRoutes(router, options, webhooks);
}

const PULL_ENDPOINT_NOT_SENT = 'This is a pull endpoint (feedback webhooks listen): the server never sends to it. Make an event, and its listener pulls it';

/** The URL as stored, or the 400 that says what is wrong with it. */
function checkedUrl(text: string, webhooks: WebhookRouteOptions): string {
  const checked = checkWebhookUrl(text, { allowPrivate: webhooks.allowPrivate });
  if (!checked.ok) throw AppError.invalidInput({ formErrors: [], fieldErrors: { url: [checked.reason] } });
  return checked.url.toString();
}

function projectOf(ctx: AppContext): string {
  return ctx.state.caller.projectId;
}
