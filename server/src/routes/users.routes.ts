import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { AppState } from '../http/context.js';
import { jsonReply, mount, type MountOptions } from '../http/mount.js';
import { IDENTIFY } from '../domain/people/users.sql.js';

/** Spec 4.1: create or update an end user. The statement is in users.sql.ts; the body is its profile (end-user.sql.ts). */
export function mountUserRoutes(router: Router<AppState>, options: MountOptions): void {
  mount(router, routes.identify, options, async ({ body }, ctx, sql) => {
    const [row] = await sql.query<{ body: string }>(IDENTIFY.name, IDENTIFY.text, [ctx.state.caller.projectId, body.externalId, JSON.stringify(body)]);
    return jsonReply(routes.identify, 200, `{"user":${row!.body}}`);
  });
}
