import type Router from '@koa/router';
import { routes } from '@feedback/sdk/contract';
import { clientIp, type AppState } from '../../http/context.js';
import { mount, reply, type MountOptions } from '../../http/mount.js';
import { getVote, toggleVote } from './votes.service.js';

/** Spec 4.5 and 4.6: without an end user, the voter is the caller's IP address. */
export function mountVoteRoutes(router: Router<AppState>, options: MountOptions): void {
  mount(router, routes.toggleVote, options, async ({ params, body }, ctx) => {
    const voter = body.endUser ? { endUser: body.endUser } : { ip: clientIp(ctx) };
    return reply(200, await toggleVote(ctx.state.em, ctx.state.projectId, params.id, voter));
  });

  mount(router, routes.getVote, options, async ({ params, query }, ctx) => {
    const voter = query.endUserId !== undefined ? { endUserId: query.endUserId } : { ip: clientIp(ctx) };
    return reply(200, await getVote(ctx.state.em, ctx.state.projectId, params.id, voter));
  });
}
