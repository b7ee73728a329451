import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { AppState } from '../http/context.js';
import { mount, reply, type MountOptions } from '../http/mount.js';
import { requestEm, type OperatorOrm } from '../http/operator-orm.js';
import { createSignInLink } from '../domain/team-sessions/team-sessions.service.js';

/** `feedback open` with a secret key: a link to the team's pages (web/team/), tied to the key. */
export function mountTeamRoutes(router: Router<AppState>, options: MountOptions, orm: OperatorOrm): void {
  const em = requestEm(orm);
  mount(router, routes.createSignInLink, options, async ({ body }, ctx) => {
    return reply(201, await createSignInLink(await em(ctx), { projectId: ctx.state.caller.projectId, keyId: ctx.state.caller.keyId }, { name: body.name }));
  });
}
