import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { AppContext, AppState } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { changelogNotFound } from '../domain/errors.js';
import { jsonReply, mount, reply, type MountOptions } from '../http/mount.js';
import { requestEm, type OperatorOrm } from '../http/operator-orm.js';
import { createEntry, deleteEntry, publishEntry, UnknownLinksError, updateEntry } from '../domain/changelog/changelog.service.js';
import { ENTRY_PAGE } from '../domain/changelog/changelog.sql.js';

/**
 * The changelog's endpoints (docs/changelog.md): a secret key writes through the changelog's
 * service (domain/changelog/); any key lists, a public key only what is published (the board
 * reads the same page).
 */
export function mountChangelogRoutes(router: Router<AppState>, options: MountOptions, orm: OperatorOrm): void {
  const em = requestEm(orm);
  const by = (ctx: AppContext, actor: string | undefined) => ({ keyId: ctx.state.caller.keyId, actor: actor ?? null });

  mount(router, routes.listChangelog, options, async ({ query: { page, limit } }, ctx, sql) => {
    const publishedOnly = ctx.state.caller.kind !== 'secret';
    const [row] = await sql.query<{ total: number; items: string }>('', ENTRY_PAGE, [ctx.state.caller.projectId, publishedOnly, limit, (page - 1) * limit]);
    const total = row!.total;
    const pages = Math.ceil(total / limit);
    return jsonReply(routes.listChangelog, 200, `{"items":${row!.items},"total":${total},"page":${page},"limit":${limit},"totalPages":${pages}}`);
  });

  mount(router, routes.createChangelog, options, async ({ body }, ctx) => {
    const { title, body: text, links, publish, publishAt, complete, actor } = body;
    if (publish && publishAt) throw invalid('publishAt', 'Give publish or publishAt, not both');
    const publication = publish || publishAt ? { at: publishAt, complete } : undefined;
    if (complete && !publication) throw invalid('complete', 'complete needs publish or publishAt: items are completed when their entry is published');
    const entry = await createEntry(await em(ctx), ctx.state.caller.projectId, { title, body: text, links }, publication, by(ctx, actor)).catch(linksRefusal);
    return reply(201, { entry });
  });

  mount(router, routes.updateChangelog, options, async ({ params: { entryId }, body }, ctx) => {
    const entry = await updateEntry(await em(ctx), ctx.state.caller.projectId, entryId, body).catch(linksRefusal);
    if (!entry) throw changelogNotFound();
    return reply(200, { entry });
  });

  mount(router, routes.publishChangelog, options, async ({ params: { entryId }, body }, ctx) => {
    const entry = await publishEntry(await em(ctx), ctx.state.caller.projectId, entryId, { at: body.publishAt, complete: body.complete }, by(ctx, body.actor));
    if (!entry) throw changelogNotFound();
    return reply(200, { entry });
  });

  mount(router, routes.deleteChangelog, options, async ({ params: { entryId } }, ctx) => {
    if (!(await deleteEntry(await em(ctx), ctx.state.caller.projectId, entryId))) throw changelogNotFound();
    return reply(200, { id: entryId, deleted: true as const });
  });
}

/** The spec's 400 (part 7) with one message under one field. */
function invalid(field: string, message: string): AppError {
  return AppError.invalidInput({ formErrors: [], fieldErrors: { [field]: [message] } });
}

/** Links the service refused: a 400 under `links`. */
function linksRefusal(error: unknown): never {
  if (error instanceof UnknownLinksError) throw invalid('links', error.message);
  throw error;
}
