import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { AppState } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { jsonReply, mount, reply, type MountOptions } from '../http/mount.js';
import { NOTIFICATION_PAGE, RETRY, SET_DIGEST } from '../domain/notifications/log.sql.js';

/** A PostgreSQL uuid's text: an id of another shape names no notification (and must not reach a ::uuid cast). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The notifications' log, its retry and the digest choice (docs/notifications.md): secret keys only. */
export function mountNotificationRoutes(router: Router<AppState>, options: MountOptions): void {
  mount(router, routes.listNotifications, options, async ({ query: { state, page, limit } }, ctx, sql) => {
    const [row] = await sql.query<{ total: number; items: string }>('', NOTIFICATION_PAGE, [ctx.state.caller.projectId, state ?? null, limit, (page - 1) * limit]);
    const total = row!.total;
    return jsonReply(routes.listNotifications, 200, `{"items":${row!.items},"total":${total},"page":${page},"limit":${limit},"totalPages":${Math.ceil(total / limit)}}`);
  });

  mount(router, routes.retryNotifications, options, async ({ body: { ids } }, ctx, sql) => {
    const bad = ids?.find((id) => !UUID.test(id));
    if (bad !== undefined) throw AppError.invalidInput({ formErrors: [], fieldErrors: { ids: [`"${bad}" is not a notification id`] } });
    const rows = await sql.query('', RETRY, [ctx.state.caller.projectId, ids ?? null]);
    return reply(200, { retried: rows.length });
  });

  mount(router, routes.updateNotificationSettings, options, async ({ body: { digest } }, ctx, sql) => {
    const [row] = await sql.query<{ digest: boolean }>('', SET_DIGEST, [ctx.state.caller.projectId, digest]);
    return reply(200, { digest: row!.digest });
  });
}
