import type Router from '@koa/router';
import { routes } from '@feedback/sdk/contract';
import type { AppState } from '../../http/context.js';
import { mount, reply, type MountOptions } from '../../http/mount.js';
import { identifyEndUser, toIdentifiedUser } from './users.service.js';

export function mountUserRoutes(router: Router<AppState>, options: MountOptions): void {
  mount(router, routes.identify, options, async ({ body }, ctx) => {
    const user = await identifyEndUser(ctx.state.em, ctx.state.projectId, body);
    return reply(200, { user: toIdentifiedUser(user) });
  });
}
