import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { AppState } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { mount, reply, type MountOptions } from '../http/mount.js';
import { requestEm, type OperatorOrm } from '../http/operator-orm.js';
import { boardSetting, setAnonymousComments, setModeration } from '../domain/projects/board-settings.service.js';
import { InvalidBrandError, setBoardBrand } from '../domain/projects/board-brand.service.js';

/** The key's project's board (docs/board.md), for a secret key: the service `feedback board brand` calls on the database too. */
export function mountBoardRoutes(router: Router<AppState>, options: MountOptions, orm: OperatorOrm): void {
  const em = requestEm(orm);
  mount(router, routes.getBoard, options, async (_input, ctx) => reply(200, await boardSetting(await em(ctx), { id: ctx.state.caller.projectId })));

  mount(router, routes.updateBoard, options, async ({ body }, ctx) => {
    const { logo, anonymousComments, moderation, moderationHoldLinks, ...texts } = body;
    const bytes = typeof logo === 'string' ? Buffer.from(logo, 'base64') : logo;
    const project = { id: ctx.state.caller.projectId };
    // The comment setting is no part of the brand: its own service, after the brand's (which may
    // refuse its input first, changing nothing), and the brand's only when a brand field is given.
    let setting = logo !== undefined || Object.values(texts).some((value) => value !== undefined) ? await setBoardBrand(await em(ctx), project, { ...texts, logo: bytes }).catch(brandRefusal) : undefined;
    if (anonymousComments !== undefined) setting = await setAnonymousComments(await em(ctx), project, anonymousComments);
    if (moderation !== undefined || moderationHoldLinks !== undefined) setting = await setModeration(await em(ctx), project, moderation, moderationHoldLinks);
    return reply(200, setting!);
  });
}

/** A brand field the service refused (its contrast, its logo's type or size): the API's 400, naming the field. */
function brandRefusal(error: unknown): never {
  if (error instanceof InvalidBrandError) throw AppError.invalidInput({ formErrors: [], fieldErrors: { [error.field]: [error.message] } });
  throw error;
}
