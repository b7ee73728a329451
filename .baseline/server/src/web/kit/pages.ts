import type Router from '@koa/router';
import type { AppContext, AppState } from '../../http/context.js';
import { AppError, toErrorResponse } from '../../http/errors.js';
import type { Logger } from '../../logger.js';
import { sendCompressed } from './compression.js';
import { formBody, type FormInput, type FormResult, type FormValues } from './forms.js';
import { checkPublicHost, checkSameOrigin } from './guards.js';
import type { SafeHtml } from './html.js';

const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * How the board's and the team's pages are answered (web/board/board.ts, web/team/team.ts): their
 * router is run here rather than mounted, so that everything under their paths is answered as
 * HTML. A path no route takes is a 404 page (a 405 with `Allow` when another method would have
 * been taken), and every error is the refusal page `refusal` makes, with the status and headers
 * of the API's error answer for it (http/errors.ts), so a 429 carries its Retry-After. An
 * unexpected error is logged with its stack and the request id; the page says no more.
 */
export function pageRunner(router: Router<AppState>, logger: Logger, refusal: (ctx: AppContext, status: number, reason: string) => SafeHtml, publicOrigin?: string) {
  const dispatch = router.routes();
  return async (ctx: AppContext): Promise<void> => {
    try {
      checkPublicHost(ctx, publicOrigin);
      await dispatch(ctx as Parameters<typeof dispatch>[0], async () => {});
      if (ctx.body === undefined || ctx.body === null) unrouted(router, ctx);
      onPublicUrl(ctx, publicOrigin);
    } catch (error) {
      const response = toErrorResponse(error);
      if (response.unexpected) logger.error('unexpected error', { id: ctx.state.requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      ctx.set(response.headers);
      ctx.status = response.status;
      await sendPage(ctx, refusal(ctx, response.status, response.body.error));
    }
  };
}

/**
 * With a public URL, a redirect of ours (a path: seeOther) names it in full, so the browser is sent
 * on to the public origin, whatever address it came by.
 */
function onPublicUrl(ctx: AppContext, publicOrigin: string | undefined): void {
  const location = ctx.response.get('Location');
  if (publicOrigin === undefined || typeof location !== 'string' || !location.startsWith('/') || location.startsWith('//')) return;
  ctx.set('Location', publicOrigin + location);
}

/** What a page's handler answers: a page, or nothing when it has answered itself (a redirect, JSON). */
export type PageAnswer = SafeHtml | undefined | void;

type Handler<A extends unknown[]> = (...args: A) => PageAnswer | Promise<PageAnswer>;

/** The refusal of a form (formInput): its problems, and its values to fill it again. */
export type FormRefusal = Extract<FormResult<unknown>, { ok: false }>;

export interface RouteSteps<R> {
  /** The budget a post spends (guards.ts, postLimit): the area's, per address. */
  limit: (ctx: AppContext) => Promise<void>;
  /**
   * Who asks, as the area knows them (a board's project and visitor; a member's session): it
   * refuses by throwing, or answers itself (a redirect to sign in) and gives undefined.
   */
  who: (ctx: AppContext, kind: 'read' | 'post') => Promise<R | undefined>;
  /** The server's public origin (`serve --public-url`), the only one a post may come from; absent, the request's own. */
  publicOrigin?: string | undefined;
}

/**
 * An area's routes, each through the same steps: a post comes from our own pages (checkSameOrigin)
 * within the address's budget; then who asks (`who`); then a post's form is read and checked
 * (formInput), and a refused form is answered in one way, 400 and the page `invalid` makes of its
 * problems and values; then the handler, whose page is sent (sendPage).
 */
export function routeSteps<R>(steps: RouteSteps<R>) {
  const parseForm = formBody();
  function post(handler: Handler<[R]>): (ctx: AppContext) => Promise<void>;
  function post<T>(form: FormInput<T>, handler: Handler<[R, T, FormValues]>, invalid: Handler<[R, FormRefusal]>): (ctx: AppContext) => Promise<void>;
  function post<T>(first: FormInput<T> | Handler<[R]>, handler?: Handler<[R, T, FormValues]>, invalid?: Handler<[R, FormRefusal]>) {
    return async (ctx: AppContext): Promise<void> => {
      checkSameOrigin(ctx, steps.publicOrigin);
      await steps.limit(ctx);
      const request = await steps.who(ctx, 'post');
      if (request === undefined) return;
      await parseForm(ctx, async () => {});
      if (!handler || !invalid) return sendPage(ctx, await (first as Handler<[R]>)(request));
      const input = (first as FormInput<T>)(ctx);
      if (input.ok) return sendPage(ctx, await handler(request, input.data, input.values));
      ctx.status = 400;
      return sendPage(ctx, await invalid(request, input));
    };
  }
  return {
    /** A page (GET, and HEAD with it): who asks, then the handler's page. */
    read: (handler: Handler<[R]>) => async (ctx: AppContext): Promise<void> => {
      const request = await steps.who(ctx, 'read');
      if (request !== undefined) await sendPage(ctx, await handler(request));
    },
    /** A post: from our own pages, within budget, who asks, its form (formInput), then the handler's page. */
    post,
  };
}

/** A page as the answer: HTML, compressed when the browser takes it (compression.ts). */
export function sendPage(ctx: AppContext, page: SafeHtml | undefined | void): Promise<void> {
  if (!page) return Promise.resolve();
  ctx.set('Content-Type', HTML_TYPE);
  return sendCompressed(ctx, page.text);
}

/** A path no route answered: 405 with Allow when another method would have been, else 404. */
function unrouted(router: Router<AppState>, ctx: AppContext): never {
  const matched = router.match(ctx.path, ctx.method);
  if (matched.path.length > 0 && !matched.route) {
    const allowed = [...new Set(matched.path.flatMap((layer) => layer.methods))].join(', ');
    throw new AppError(405, `This address does not take ${ctx.method}.`, undefined, { Allow: allowed });
  }
  throw new AppError(404, 'There is no page at this address.');
}
