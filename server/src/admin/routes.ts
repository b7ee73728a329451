import type Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/postgresql';
import { routes } from '@feedbackd/sdk/contract';
import type { AppContext, AppState } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { blockNotFound, endUserNotFound, feedbackNotFound } from '../http/item-ids.js';
import { jsonReply, mount, reply, type MountOptions, type Statements } from '../http/mount.js';
import { CommentThreads } from '../api/comment-threads.js';
import { DETAIL_WITH_HISTORY } from '../api/feedback.sql.js';
import { mountCommentRoutes, type EndUserTokenCheck } from './comment-routes.js';
import { deleteItem, updateItem } from './items.service.js';
import { mergeItems } from './merge.service.js';
import { createSignInLink } from './team-sessions.service.js';
import { boardSetting, setAnonymousComments, setModeration } from './board-settings.service.js';
import { InvalidBrandError, setBoardBrand } from './board-brand.service.js';
import { eraseEndUser } from './end-users/erasure.service.js';
import { approveHeld, blockList, heldQueue, liftBlock, rejectHeld } from './moderation.service.js';
import { exportEndUser } from './end-users/export.service.js';

/** What the operator's endpoints need: the ORM for their transactions, the hot pool to read an item back. */
export interface AdminDependencies {
  /** The operator side's ORM; a cluster worker opens it on the first operator request. */
  orm: () => Promise<MikroORM>;
  /** The check of an end user's signed token, the board's and the widget's (web/kit/visitor-token.ts): a public key's proof of who changes a comment. */
  endUserToken: EndUserTokenCheck;
}

/**
 * The operator's endpoints (extensions beyond the spec; `auth: 'secret'` in the route table, so
 * `mount` refuses public keys with 403). Each change is one transaction of a service beside this
 * file; an item is then read back as a secret key's detail view, by the hot statement.
 */
export function mountAdminRoutes(router: Router<AppState>, deps: AdminDependencies, options: MountOptions): void {
  // In the transaction of a write sent with an Idempotency-Key (http/idempotent-writes.ts), or a fork of its own.
  const em = async (ctx: AppContext) => ctx.state.tx?.em ?? (await deps.orm()).em.fork();

  const threads = new CommentThreads();
  /** The item as GET /api/v1/feedback/:id shows it to a secret key, as JSON text. */
  const detail = async (id: string, ctx: AppContext, sql: Statements): Promise<string> => {
    const body = await threads.read(sql, DETAIL_WITH_HISTORY, id, projectOf(ctx), null);
    // Deleted by someone else between the change's commit and this read.
    if (body === undefined) throw feedbackNotFound();
    return body;
  };

  mount(router, routes.updateFeedback, options, async ({ params: { id }, body }, ctx, sql) => {
    const { actor, ...changes } = body;
    const found = await updateItem(await em(ctx), projectOf(ctx), id, changes, { keyId: ctx.state.caller.keyId, actor: actor ?? null });
    if (!found) throw feedbackNotFound();
    return jsonReply(routes.updateFeedback, 200, `{"feedback":${await detail(id, ctx, sql)}}`);
  });

  mount(router, routes.deleteFeedback, options, async ({ params: { id } }, ctx) => {
    if (!(await deleteItem(await em(ctx), projectOf(ctx), id))) throw feedbackNotFound();
    return reply(200, { id, deleted: true as const });
  });

  mountCommentRoutes(router, em, deps.endUserToken, options);

  mount(router, routes.mergeFeedback, options, async ({ params: { id }, body }, ctx, sql) => {
    if (body.intoId === id) throw AppError.invalidInput({ formErrors: [], fieldErrors: { intoId: ['intoId must be another item than the one merged'] } });
    const merged = await mergeItems(await em(ctx), projectOf(ctx), id, body.intoId);
    if (!merged) throw feedbackNotFound();
    const summary = JSON.stringify({ id, ...merged });
    return jsonReply(routes.mergeFeedback, 200, `{"feedback":${await detail(body.intoId, ctx, sql)},"merged":${summary}}`);
  });

  // The moderation queue (docs/moderation.md): the services `feedback moderation` and the team's inbox call too.
  mount(router, routes.listHeld, options, async (_input, ctx) => reply(200, await heldQueue(await em(ctx), projectOf(ctx))));
  mount(router, routes.approveHeld, options, async ({ body }, ctx) => reply(200, await approveHeld(await em(ctx), projectOf(ctx), body.ids)));
  mount(router, routes.rejectHeld, options, async ({ body }, ctx) => reply(200, await rejectHeld(await em(ctx), projectOf(ctx), body.ids, body.block ?? false, body.blockDays)));
  mount(router, routes.listBlocks, options, async (_input, ctx) => reply(200, await blockList(await em(ctx), projectOf(ctx))));
  mount(router, routes.unblock, options, async ({ params: { blockId } }, ctx) => {
    if (!(await liftBlock(await em(ctx), projectOf(ctx), blockId))) throw blockNotFound();
    return reply(200, { id: blockId, deleted: true as const });
  });

  // One end user's data (docs/api.md): erasure, then what is held of them.
  mount(router, routes.eraseUser, options, async ({ params: { externalId }, query: { content } }, ctx) => {
    return reply(200, await eraseEndUser(await em(ctx), { projectId: projectOf(ctx) }, externalId, content));
  });

  mount(router, routes.exportUser, options, async ({ params: { externalId } }, ctx) => {
    const document = await exportEndUser(await em(ctx), { projectId: projectOf(ctx) }, externalId);
    if (!document) throw endUserNotFound();
    return reply(200, document);
  });

  // `feedback open` with a secret key: a link to the team's pages (web/team/), tied to the key.
  mount(router, routes.createSignInLink, options, async ({ body }, ctx) => {
    return reply(201, await createSignInLink(await em(ctx), { projectId: projectOf(ctx), keyId: ctx.state.caller.keyId }, { name: body.name }));
  });

  // The key's project's board (docs/board.md): the service `feedback board brand` calls on the database too.
  mount(router, routes.getBoard, options, async (_input, ctx) => reply(200, await boardSetting(await em(ctx), { id: projectOf(ctx) })));

  mount(router, routes.updateBoard, options, async ({ body }, ctx) => {
    const { logo, anonymousComments, moderation, moderationHoldLinks, ...texts } = body;
    const bytes = typeof logo === 'string' ? Buffer.from(logo, 'base64') : logo;
    const project = { id: projectOf(ctx) };
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

function projectOf(ctx: AppContext): string {
  return ctx.state.caller.projectId;
}
