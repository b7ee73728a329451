import type Router from '@koa/router';
import type { AppContext, AppState } from '../../http/context.js';
import { AppError, toErrorResponse } from '../../http/errors.js';
import type { Logger } from '../../logger.js';
import { sendCompressed } from './compression.js';
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
export function pageRunner(router: Router<AppState>, logger: Logger, refusal: (ctx: AppContext, status: number, reason: string) => SafeHtml) {
  const dispatch = router.routes();
  return async (ctx: AppContext): Promise<void> => {
    try {
      await dispatch(ctx as Parameters<typeof dispatch>[0], async () => {});
      if (ctx.body === undefined || ctx.body === null) unrouted(router, ctx);
    } catch (error) {
      const response = toErrorResponse(error);
      if (response.unexpected) logger.error('unexpected error', { id: ctx.state.requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      ctx.set(response.headers);
      ctx.status = response.status;
      await sendPage(ctx, refusal(ctx, response.status, response.body.error));
    }
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
