import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { AppState } from '../http/context.js';
import { jsonReply, mount, type MountOptions } from '../http/mount.js';
import { similarItems } from '../domain/feedback/similar.js';

/** GET /api/v1/feedback/similar (an extension): the items closest to a title. Statement in similar.sql.ts. */
export function mountSimilarRoutes(router: Router<AppState>, options: MountOptions): void {
  mount(router, routes.similarFeedback, options, async ({ query }, ctx, sql) => {
    const items = await similarItems(sql, ctx.state.caller.projectId, query.title, query);
    return jsonReply(routes.similarFeedback, 200, `{"items":${items}}`);
  });
}
