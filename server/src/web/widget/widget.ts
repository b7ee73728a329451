import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { SqlPool } from '../../db/pool.js';
import { voterKeyOf } from '../../domain/votes/votes.js';
import type { HotWrites } from '../../domain/hot-writes.js';
import { clientIp } from '../../http/edge.js';
import type { AppContext, AppState } from '../../http/context.js';
import { withRoutes } from '../../http/mounted-routes.js';
import { AppError, toErrorResponse } from '../../http/errors.js';
import type { RateLimiter } from '../../limits/lease-client.js';
import type { Logger } from '../../logger.js';
import { DEFAULT_MIN_FILL_MS, formGuard } from '../kit/form-guard.js';
import { formBody } from '../kit/forms.js';
import { checkSameOrigin, postLimit, setPageHeaders } from '../kit/guards.js';
import { i18nFor } from '../kit/i18n.js';
import { chosenI18n } from '../kit/locale-choice.js';
import { pageRunner, sendPage, type PageAnswer } from '../kit/pages.js';
import { exchangeToken } from '../kit/visitor-token.js';
import type { WidgetAssets } from './assets.js';
import { widgetPages, type WidgetRequest } from './pages.js';
import { panelState } from './panel-state.js';
import { makeSession, sessionVisitor } from './session.js';
import { widgetProjects } from './widget-project.js';
import { errorPanel } from './views/error-panel.js';

/** Where the widget is: the loader at /w/loader.js, the panels at /w/:slug, their assets at /w/assets/. */
export const WIDGET_PREFIX = '/w/';

export interface WidgetOptions {
  sql: SqlPool;
  writes: HotWrites;
  limiter: RateLimiter | undefined;
  logger: Logger;
  assets: WidgetAssets;
  publicOrigin?: string | undefined;
  voterSecret: Buffer;
  /** The shortest time to fill the submit form (kit/form-guard.ts): the board's (`serve --board-min-fill`). */
  minFillMs?: number | undefined;
}

/** What a host that is not allowed is told (and shown instead of any visitor's data). */
const NOT_ALLOWED = 'This widget is not allowed on this site. Its operator lists the sites that may show it (feedback widget on --origin).';

/**
 * The widget (docs/widget.md): the loader a host page includes, and the panel it frames. The
 * panel is answered only for a host origin the operator allowed (`feedback widget on --origin`):
 * that list is its frame-ancestors, the origin its script talks to by postMessage, and the origin
 * a panel's session is bound to; a panel asked for by any other origin is a 403 page with no data.
 */
export function widget(options: WidgetOptions): Middleware<AppState> {
  const { sql, logger, assets } = options;
  // The board's spam guard (kit/form-guard.ts): the same key and table, so a stamp of either passes only its own form.
  const pages = widgetPages(sql, options.writes, assets, formGuard(options.voterSecret, sql, options.minFillMs ?? DEFAULT_MIN_FILL_MS));
  const projectBySlug = widgetProjects(sql);
  const limit = postLimit(options.limiter, logger, 'board');
  const parseForm = formBody();

  const who = async (ctx: AppContext): Promise<WidgetRequest> => {
    const project = await projectBySlug(String(ctx.params.slug));
    if (!project) throw new AppError(404, 'There is no widget at this address.');
    framedBy(ctx, project.origins);
    ctx.state.boardLocale = project.locale ?? undefined;
    const state = panelState(ctx, `/w/${encodeURIComponent(project.slug)}`);
    if (!state || !project.origins.includes(state.origin)) throw new AppError(403, NOT_ALLOWED);
    const visitor = sessionVisitor(ctx, project, state.origin);
    const voterKey = visitor ? visitor.endUserId : voterKeyOf(options.voterSecret, project.voterSalt, clientIp(ctx));
    return { ctx, project, state, visitor, voterKey, i18n: state.lang ? i18nFor(state.lang) : chosenI18n(ctx, project.locale) };
  };
  const read = (handler: (request: WidgetRequest) => Promise<PageAnswer>) => async (ctx: AppContext) => sendPage(ctx, await handler(await who(ctx)));
  // A post: from the panel's own pages (same origin), within the address's budget, its form read before who asks (its hidden fields say the host and carry the session).
  const post = (handler: (request: WidgetRequest) => Promise<PageAnswer>) => async (ctx: AppContext) => {
    checkSameOrigin(ctx, options.publicOrigin);
    await limit(ctx);
    await parseForm(ctx, async () => {});
    await sendPage(ctx, await handler(await who(ctx)));
  };

  const router = new Router<AppState>({ sensitive: true, strict: true });
  router.get('/w/:slug', read(pages.panel));
  router.get('/w/:slug/similar', read(pages.similar));
  router.post('/w/:slug/new', post(pages.submit));
  router.post('/w/:slug/items/:id/vote', post(pages.vote));
  router.post('/w/:slug/session', async (ctx) => {
    // The exchange answers JSON to the panel's script, a refusal too (the API's error shape), never a page.
    ctx.set('Cache-Control', 'no-store');
    try {
      await post(async (request) => {
        const token = (ctx.request.body as Record<string, unknown>).token;
        if (typeof token !== 'string' || token === '' || token.length > 8_000) throw new AppError(400, 'Give the token the host app signed (token).');
        if (!request.project.identitySecret) throw new AppError(401, 'This widget takes no signed-in visitors: it is used anonymously.');
        const visitor = await exchangeToken(sql, { ...request.project, identitySecret: request.project.identitySecret }, token);
        ctx.body = { ...makeSession(request.project, visitor, request.state.origin), name: visitor.name };
        return undefined;
      })(ctx);
    } catch (error) {
      const response = toErrorResponse(error);
      if (response.unexpected) throw error;
      ctx.set(response.headers);
      ctx.status = response.status;
      ctx.body = response.body;
    }
  });

  const answer = pageRunner(router, logger, (ctx, status, reason) => errorPanel(status, reason, assets.paths, chosenI18n(ctx, ctx.state.boardLocale)), options.publicOrigin);

  const middleware: Middleware<AppState> = async (ctx, next) => {
    if (!ctx.path.startsWith(WIDGET_PREFIX)) return next();
    setPageHeaders(ctx);
    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && assets.serve(ctx)) return;
    // A panel is the visitor's own (their votes, their requests): kept by no shared cache.
    ctx.set('Cache-Control', 'private, no-cache');
    await answer(ctx);
  };
  return withRoutes(middleware, router);
}

/**
 * The panel's policy: the board's (nothing inline, our own files only), framed by the project's
 * allowed host origins and no other site. A project whose widget is off keeps the default
 * (frame-ancestors 'none').
 */
function framedBy(ctx: AppContext, origins: readonly string[]): void {
  const ancestors = origins.length > 0 ? origins.join(' ') : "'none'";
  ctx.set('Content-Security-Policy', `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors ${ancestors}; base-uri 'none'`);
}
