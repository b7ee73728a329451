import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { AppState } from '../http/context.js';
import { endUserNotFound } from '../domain/errors.js';
import { mount, reply, type MountOptions } from '../http/mount.js';
import { requestEm, type OperatorOrm } from '../http/operator-orm.js';
import { eraseEndUser } from '../domain/people/erasure.service.js';
import { exportEndUser } from '../domain/people/export.service.js';

/** One end user's data (docs/api.md), for a secret key: erasure, then what is held of them. */
export function mountUserDataRoutes(router: Router<AppState>, options: MountOptions, orm: OperatorOrm): void {
  const em = requestEm(orm);
  mount(router, routes.eraseUser, options, async ({ params: { externalId }, query: { content } }, ctx) => {
    return reply(200, await eraseEndUser(await em(ctx), { projectId: ctx.state.caller.projectId }, externalId, content));
  });

  mount(router, routes.exportUser, options, async ({ params: { externalId } }, ctx) => {
    const document = await exportEndUser(await em(ctx), { projectId: ctx.state.caller.projectId }, externalId);
    if (!document) throw endUserNotFound();
    return reply(200, document);
  });
}
