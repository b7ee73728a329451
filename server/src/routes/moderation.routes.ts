import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { AppState } from '../http/context.js';
import { blockNotFound } from '../domain/errors.js';
import { mount, reply, type MountOptions } from '../http/mount.js';
import { requestEm, type OperatorOrm } from '../http/operator-orm.js';
import { approveHeld, blockList, heldQueue, liftBlock, rejectHeld } from '../domain/moderation/moderation.service.js';

/**
 * The moderation queue and the blocks (docs/moderation.md), for a secret key: the services
 * `feedback moderation` and the team's inbox call too, each change one transaction.
 */
export function mountModerationRoutes(router: Router<AppState>, options: MountOptions, orm: OperatorOrm): void {
  const em = requestEm(orm);
  mount(router, routes.listHeld, options, async (_input, ctx) => reply(200, await heldQueue(await em(ctx), ctx.state.caller.projectId)));
  mount(router, routes.approveHeld, options, async ({ body }, ctx) => reply(200, await approveHeld(await em(ctx), ctx.state.caller.projectId, body.ids)));
  mount(router, routes.rejectHeld, options, async ({ body }, ctx) => reply(200, await rejectHeld(await em(ctx), ctx.state.caller.projectId, body.ids, body.block ?? false, body.blockDays)));
  mount(router, routes.listBlocks, options, async (_input, ctx) => reply(200, await blockList(await em(ctx), ctx.state.caller.projectId)));
  mount(router, routes.unblock, options, async ({ params: { blockId } }, ctx) => {
    if (!(await liftBlock(await em(ctx), ctx.state.caller.projectId, blockId))) throw blockNotFound();
    return reply(200, { id: blockId, deleted: true as const });
  });
}
