import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { AppState } from '../http/context.js';
import { endUserNotFound, feedbackNotFound, isItemGone } from '../domain/errors.js';
import { jsonReply, mount, reply, type MountOptions } from '../http/mount.js';
import { isSubscribed, listSubscribers, subscribe, unsubscribe } from '../domain/subscriptions/subscriptions.sql.js';

/**
 * Subscriptions' endpoints (docs/notifications.md, "Subscriptions"): an end user, by externalId,
 * subscribes, unsubscribes from an item or from the whole project, and is asked about; a secret
 * key lists an item's subscribers. Each is one statement of subscriptions.sql.ts.
 */
export function mountSubscriptionRoutes(router: Router<AppState>, options: MountOptions): void {
  mount(router, routes.getSubscription, options, async ({ params: { id }, query: { endUserId } }, ctx, sql) => {
    const subscribed = await isSubscribed(sql, { projectId: ctx.state.caller.projectId, feedbackId: id, externalId: endUserId });
    if (subscribed === undefined) throw feedbackNotFound();
    return reply(200, { subscribed });
  });

  mount(router, routes.subscribe, options, async ({ params: { id }, body: { endUser } }, ctx, sql) => {
    let found: boolean;
    try {
      found = await subscribe(sql, { projectId: ctx.state.caller.projectId, feedbackId: id, endUser });
    } catch (error) {
      // The item was deleted while the statement ran: as if the request came a moment later.
      throw isItemGone(error) ? feedbackNotFound() : error;
    }
    if (!found) throw feedbackNotFound();
    return reply(200, { subscribed: true });
  });

  mount(router, routes.unsubscribe, options, async ({ params: { id }, body: { endUserId } }, ctx, sql) => {
    let found;
    try {
      found = await unsubscribe(sql, { projectId: ctx.state.caller.projectId, feedbackId: id, externalId: endUserId });
    } catch (error) {
      throw isItemGone(error) ? feedbackNotFound() : error;
    }
    if (!found.item) throw feedbackNotFound();
    if (!found.user) throw endUserNotFound();
    return reply(200, { subscribed: false });
  });

  mount(router, routes.unsubscribeAll, options, async ({ body: { endUserId } }, ctx, sql) => {
    const found = await unsubscribe(sql, { projectId: ctx.state.caller.projectId, feedbackId: null, externalId: endUserId });
    if (!found.user) throw endUserNotFound();
    return reply(200, { unsubscribed: true as const });
  });

  mount(router, routes.listSubscribers, options, async ({ params: { id }, query: { page, limit } }, ctx, sql) => {
    const found = await listSubscribers(sql, { projectId: ctx.state.caller.projectId, feedbackId: id, page, limit });
    if (!found) throw feedbackNotFound();
    return jsonReply(routes.listSubscribers, 200, JSON.stringify({ items: found.items, total: found.total, page, limit, totalPages: Math.ceil(found.total / limit) }));
  });
}
