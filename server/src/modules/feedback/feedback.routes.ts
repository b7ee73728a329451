import type Router from '@koa/router';
import { routes } from '@feedback/sdk/contract';
import { clientIp, type AppState } from '../../http/context.js';
import { mount, reply, type MountOptions } from '../../http/mount.js';
import { listFeedback } from './feedback-list.js';
import { createFeedback, getFeedbackDetail } from './feedback.service.js';

export function mountFeedbackRoutes(router: Router<AppState>, options: MountOptions): void {
  mount(router, routes.createFeedback, options, async ({ body }, ctx) => {
    const feedback = await createFeedback(ctx.state.em, ctx.state.projectId, body, clientIp(ctx));
    return reply(201, { feedback });
  });

  mount(router, routes.listFeedback, options, async ({ query }, ctx) => {
    return reply(200, await listFeedback(ctx.state.em, ctx.state.projectId, query));
  });

  mount(router, routes.getFeedback, options, async ({ params, query }, ctx) => {
    const feedback = await getFeedbackDetail(ctx.state.em, ctx.state.projectId, params.id, query.endUserId);
    return reply(200, { feedback });
  });
}
