import type Router from '@koa/router';
import { routes, WEBHOOK_PULL_CLAIM_SECONDS, WEBHOOK_RESPONSE_EXCERPT_CHARS, type PulledWebhookDelivery } from '@feedbackd/sdk/contract';
import { newWebhookSecret } from '@feedbackd/sdk/webhooks';
import type { AppContext, AppState } from '../http/context.js';
import { deliveryNotFound, webhookNotFound } from '../domain/errors.js';
import { jsonReply, mount, reply, type MountOptions } from '../http/mount.js';
import type { Logger } from '../logger.js';
import type { ClaimedDelivery } from '../delivery/webhooks/deliveries.sql.js';
import { GET_DELIVERY } from '../domain/webhooks/endpoints.sql.js';
import { CLAIM_PULLED, CREATE_LISTENER, TAKE_REPORTED, TOUCH_LISTENER } from '../delivery/webhooks/listeners.sql.js';
import { deliveryBody, recordOutcome, signDelivery } from '../delivery/webhooks/attempts.js';
import { probeEndpoint, pullWaiters } from '../delivery/webhooks/pull-waiters.js';
import type { WebhookWakeups } from '../delivery/webhooks/wake-ups.js';

export interface ListenerRouteOptions {
  /** Where a reported outcome that disables an endpoint is told. */
  logger: Logger;
  /** Aborted when the server stops: a pull waiting for deliveries answers at once. */
  stopping?: AbortSignal;
  /** What wakes the waiting pulls (wake-ups.ts). */
  wakeups: WebhookWakeups;
}

/**
 * Pull endpoints' API (docs/webhooks.md, "Receiving on your own machine"): `feedback webhooks
 * listen` makes one, pulls its deliveries, forwards them on the developer's machine and reports
 * each outcome. The server never connects to a pull endpoint's URL, so it is not checked against
 * the private network. The bodies and signatures are the sender's own (attempts.ts), and so is what
 * follows an outcome.
 */
export function mountListenerRoutes(router: Router<AppState>, options: MountOptions, webhooks: ListenerRouteOptions): void {
  // The pulls that wait share one look at the database when something happens (pull-waiters.ts), instead of each its own.
  const waiters = pullWaiters(options.sql, webhooks.wakeups);

  mount(router, routes.listenWebhook, options, async ({ body }, ctx, sql) => {
    const secret = newWebhookSecret();
    const values = [projectOf(ctx), new URL(body.forwardTo).toString(), body.events ?? null, body.format ?? 'standard', secret];
    const [row] = await sql.query<{ body: string }>('', CREATE_LISTENER, values);
    return jsonReply(routes.listenWebhook, 201, `{"webhook":${row!.body},"secret":${JSON.stringify(secret)}}`);
  });

  // Its route takes no Idempotency-Key, so `sql` is the pool, never a transaction held open while it waits.
  mount(router, routes.pullWebhookDeliveries, options, async ({ params, body }, ctx, sql) => {
    // A pull changes nothing another pull waits for (what it claims is not due for anyone else):
    // its end wakes no waiting pull (app.ts).
    ctx.state.wakesNoPull = true;
    const [endpoint] = await sql.query<{ enabled: boolean }>('', TOUCH_LISTENER, [projectOf(ctx), params.webhookId]);
    if (!endpoint) throw webhookNotFound();
    if (!endpoint.enabled) return reply(200, { items: [] });
    const ended = waitEnds(ctx, webhooks.stopping);
    const deadline = performance.now() + body.waitSeconds * 1000;
    const claim = () => sql.query<ClaimedDelivery & Record<string, unknown>>('', CLAIM_PULLED, [params.webhookId, body.limit, WEBHOOK_PULL_CLAIM_SECONDS]);
    try {
      // A caller gone claims nothing: what it would have got stays due for the next pull.
      if (ended.signal.aborted) return reply(200, { items: [] });
      // Read before the look: a change told after it makes the wait look again at once.
      let seen = webhooks.wakeups.changes;
      const now = await probeEndpoint(sql, params.webhookId);
      let claimed = now.due ? await claim() : [];
      // Waiting, it runs no statement of its own: the look that a change or a due time brings
      // wakes it when its endpoint has a delivery due (pull-waiters.ts), and only then does it claim again.
      let dueInMs = now.dueInMs;
      while (claimed.length === 0 && (await waiters.wait(params.webhookId, deadline - performance.now(), ended.signal, seen, dueInMs))) {
        if (ended.signal.aborted) return reply(200, { items: [] });
        seen = webhooks.wakeups.changes;
        dueInMs = null;
        claimed = await waiters.inTurn(claim);
      }
      return reply(200, { items: claimed.map(handedOut) });
    } finally {
      ended.dispose();
    }
  });

  mount(router, routes.reportWebhookDelivery, options, async ({ params, body }, ctx, sql) => {
    const project = projectOf(ctx);
    if ((await sql.query('', TOUCH_LISTENER, [project, params.webhookId])).length === 0) throw webhookNotFound();
    const [delivery] = await sql.query<ClaimedDelivery & Record<string, unknown>>('', TAKE_REPORTED, [project, params.webhookId, params.deliveryId]);
    // Not this endpoint's, or not under a pull's claim now: never claimed, reported already, or its claim expired.
    if (!delivery) throw deliveryNotFound();
    const outcome = { at: new Date(Date.now() - body.latencyMs), status: body.statusCode, latencyMs: body.latencyMs, error: excerpt(body.error), response: excerpt(body.response) };
    await recordOutcome(sql, webhooks.logger, delivery, outcome);
    const [row] = await sql.query<{ body: string }>('', GET_DELIVERY, [project, delivery.id]);
    return jsonReply(routes.reportWebhookDelivery, 200, `{"delivery":${row!.body}}`);
  });
}

/** A claimed delivery as a listener gets it: the body and headers the sender would have sent. */
function handedOut(delivery: ClaimedDelivery): PulledWebhookDelivery {
  const body = deliveryBody(delivery);
  return { deliveryId: delivery.id, attempt: delivery.attempt, eventType: delivery.type, headers: { ...signDelivery(delivery, body), 'content-type': 'application/json' }, body };
}

/** Aborted when the caller goes away or the server stops, so that a waiting pull ends at once. */
function waitEnds(ctx: AppContext, stopping: AbortSignal | undefined): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const end = () => controller.abort();
  // The response closes before it is written only when the connection went.
  ctx.res.once('close', end);
  stopping?.addEventListener('abort', end, { once: true });
  // Not `req.destroyed`: a request whose body has been read is destroyed too, with its connection open.
  if (stopping?.aborted || ctx.req.socket.destroyed) end();
  return {
    signal: controller.signal,
    dispose: () => {
      ctx.res.off('close', end);
      stopping?.removeEventListener('abort', end);
    },
  };
}

/** Text as the log keeps it: its first 2 KB. */
function excerpt(text: string | null | undefined): string | null {
  return text == null ? null : text.slice(0, WEBHOOK_RESPONSE_EXCERPT_CHARS);
}

function projectOf(ctx: AppContext): string {
  return ctx.state.caller.projectId;
}
