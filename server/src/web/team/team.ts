import Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Middleware } from 'koa';
import type { SqlPool } from '../../db/pool.js';
import type { AppContext, AppState } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import type { RateLimiter } from '../../limits/lease-client.js';
import type { Logger } from '../../logger.js';
import type { AssetPaths, BoardAssets } from '../kit/assets.js';
import { formBody } from '../kit/forms.js';
import { checkSameOrigin, CROSS_SITE_REFUSAL, postLimit, setPageHeaders } from '../kit/guards.js';
import type { SafeHtml } from '../kit/html.js';
import { pageRunner, sendPage } from '../kit/pages.js';
import { inbox } from './inbox.js';
import { teamItems } from './items.js';
import { teamErrorPage, teamPaths } from './layout.js';
import type { TeamRequest } from './requests.js';
import { teamSessions, type TeamSession } from './session.js';
import { teamScript } from './team-assets.js';
import { signIn } from './sign-in.js';

/** Where the team's pages are. */
export const TEAM_PREFIX = '/team';

/** The session of a request once known: a refusal after it keeps the signed-in header. */
const signedIn = new WeakMap<AppContext, TeamSession>();

export interface TeamOptions {
  sql: SqlPool;
  /** The operator side's ORM: every change runs through the API's own services (admin/). */
  orm: () => Promise<MikroORM>;
  /** The server's rate limiter: the sign-in link, the sign-in form and every team post spend the address's budget. */
  limiter: RateLimiter | undefined;
  logger: Logger;
  /** The board's assets (web/board/assets.ts): the team's pages use its stylesheet. */
  assets: BoardAssets;
}

/**
 * The team's pages (docs/triage.md): sign-in, the inbox and its bulk changes, under /team,
 * answered before the API asks for a key (they have their own session). Everything under /team is
 * answered here, as HTML that no cache keeps (`no-store`): a page, or the team's page for a
 * refusal. Every post comes from our own pages (checkSameOrigin) within the address's budget.
 */
export function team(options: TeamOptions): Middleware<AppState> {
  const { sql, logger } = options;
  // The board's stylesheet, under the same hashed name (the board's middleware serves it), and
  // the team's own script (served here).
  const script = teamScript();
  const assets: AssetPaths = { css: options.assets.paths.css, js: script.path };
  const sessions = teamSessions(sql);
  const ways = signIn(sessions, assets);
  const items = inbox(sql, options.orm, assets);
  const item = teamItems(sql, options.orm, assets);
  const limit = postLimit(options.limiter, logger, 'team');
  const parseForm = formBody();

  /** A page of a signed-in member; without a live session, the sign-in page (a cookie that ended says so). */
  const member = (handler: (request: TeamRequest) => Promise<SafeHtml | undefined>) => async (ctx: AppContext) => {
    const session = await sessions.current(ctx);
    if (!session) {
      const stale = sessions.hasCookie(ctx);
      if (stale) sessions.clear(ctx);
      ctx.status = 303;
      return ctx.redirect(stale ? `${teamPaths.signIn}?ended` : teamPaths.signIn);
    }
    signedIn.set(ctx, session);
    await sendPage(ctx, await handler({ ctx, session }));
  };
  /** A post of a signed-in member: from our own pages, within budget, its form read; a post without a session is a 401 page. */
  const memberPost = (handler: (request: TeamRequest) => Promise<SafeHtml | undefined>) => async (ctx: AppContext) => {
    checkSameOrigin(ctx);
    await limit(ctx);
    const session = await sessions.current(ctx);
    if (!session) {
      if (sessions.hasCookie(ctx)) sessions.clear(ctx);
      throw new AppError(401, 'Your session has ended, so nothing was changed. Sign in again, then repeat the change.');
    }
    signedIn.set(ctx, session);
    await parseForm(ctx, async () => {});
    await sendPage(ctx, await handler({ ctx, session }));
  };

  const router = new Router<AppState>({ sensitive: true, strict: true });
  router.get(teamPaths.inbox, member(items.page));
  router.get(teamPaths.signIn, async (ctx) => {
    // A link's token is limited per address like a post (the form itself is not).
    if (ctx.query.token !== undefined) await limit(ctx);
    await sendPage(ctx, await ways.page(ctx));
  });
  router.post(teamPaths.signIn, async (ctx) => {
    checkSameOrigin(ctx);
    await limit(ctx);
    await parseForm(ctx, async () => {});
    await sendPage(ctx, await ways.withKey(ctx));
  });
  router.post(teamPaths.signOut, async (ctx) => {
    checkSameOrigin(ctx);
    await limit(ctx);
    await sendPage(ctx, await ways.signOut(ctx));
  });
  router.post(teamPaths.bulkStatus, memberPost(items.changeStatus));
  router.get('/team/items/:id', member(item.page));
  router.post('/team/items/:id/status', memberPost(item.changeStatus));
  router.post('/team/items/:id/comments', memberPost(item.reply));
  router.post('/team/items/:id/merge', memberPost(item.merge));
  router.get('/team/items/:id/delete', member(item.confirmDelete));
  router.post('/team/items/:id/delete', memberPost(item.delete));

  const answer = pageRunner(router, logger, (ctx, status, reason) =>
    // The guard's words send people back to the board; these pages are the team's.
    teamErrorPage(status, reason === CROSS_SITE_REFUSAL ? "The form was sent from another site. Open the team's pages and send it from there." : reason, assets, signedIn.get(ctx)?.project),
  );

  return async (ctx, next) => {
    if (ctx.path !== TEAM_PREFIX && !ctx.path.startsWith(`${TEAM_PREFIX}/`)) return next();
    setPageHeaders(ctx);
    if (script.serve(ctx)) return;
    // A team page shows what only the team may see, and its answers set and clear the session's
    // cookie: no cache, shared or the browser's own, keeps any of them.
    ctx.set('Cache-Control', 'no-store');
    await answer(ctx);
  };
}
