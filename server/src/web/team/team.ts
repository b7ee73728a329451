import Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Middleware } from 'koa';
import type { SqlPool } from '../../db/pool.js';
import type { AppContext, AppState } from '../../http/context.js';
import { withRoutes } from '../../http/mounted-routes.js';
import { AppError } from '../../http/errors.js';
import type { RateLimiter } from '../../limits/lease-client.js';
import type { Logger } from '../../logger.js';
import type { BoardAssets } from '../kit/assets.js';
import { seeOther } from '../kit/forms.js';
import { CROSS_SITE_REFUSAL, postLimit, setPageHeaders } from '../kit/guards.js';
import { pageRunner, routeSteps } from '../kit/pages.js';
import { chosenI18n, keepLocale } from '../kit/locale-choice.js';
import { bulkStatusForm, inbox, undoForm } from './inbox.js';
import { heldDecisionForm, heldView } from './held.js';
import { mergeForm, replyForm, pinForm, statusForm, teamItems } from './items.js';
import { teamErrorPage, teamPaths } from './layout.js';
import type { TeamRequest } from './requests.js';
import { teamSessions, type TeamSession } from './session.js';
import { teamAssets, type TeamAssetPaths } from './team-assets.js';
import { signIn, signInForm } from './sign-in.js';

/** Where the team's pages are. */
export const TEAM_PREFIX = '/team';

/** The session of a request once known: a refusal after it keeps the signed-in header. */
const signedIn = new WeakMap<AppContext, TeamSession>();

export interface TeamOptions {
  sql: SqlPool;
  /** The operator side's ORM: every change runs through the API's own services (domain/). */
  orm: () => Promise<MikroORM>;
  /** The server's rate limiter: the sign-in link, the sign-in form and every team post spend the address's budget. */
  limiter: RateLimiter | undefined;
  logger: Logger;
  /** The board's assets (web/board/assets.ts): the team's pages use its stylesheet. */
  assets: BoardAssets;
  /** The server's public origin (`serve --public-url`): the only host pages are answered for, and the base of redirects. */
  publicOrigin?: string | undefined;
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
  // the team's own script and stylesheet (served here).
  const own = teamAssets();
  const assets: TeamAssetPaths = { css: options.assets.paths.css, js: own.script, teamCss: own.styles };
  const sessions = teamSessions(sql);
  const ways = signIn(sessions, assets);
  const items = inbox(sql, options.orm, assets);
  const item = teamItems(sql, options.orm, assets);
  const held = heldView(sql, options.orm, assets);
  const limit = postLimit(options.limiter, logger, 'team');

  /**
   * A signed-in member: their live session. Without one, a page sends the browser to sign in (a
   * cookie that ended says so), and a post is a 401 page: nothing is changed.
   */
  const memberOf = async (ctx: AppContext, kind: 'read' | 'post'): Promise<TeamRequest | undefined> => {
    const session = await sessions.current(ctx);
    if (!session) {
      const stale = sessions.hasCookie(ctx);
      if (stale) sessions.clear(ctx);
      if (kind === 'post') throw new AppError(401, 'Your session has ended, so nothing was changed. Sign in again, then repeat the change.');
      seeOther(ctx, stale ? `${teamPaths.signIn}?ended` : teamPaths.signIn);
      return undefined;
    }
    signedIn.set(ctx, session);
    return { ctx, session };
  };
  // The member's pages and posts, and the ways in, which need no session (kit/pages.ts, routeSteps).
  const { publicOrigin } = options;
  const member = routeSteps({ limit, who: memberOf, publicOrigin });
  const visitor = routeSteps({ limit, who: async (ctx) => ctx, publicOrigin });

  const router = new Router<AppState>({ sensitive: true, strict: true });
  router.get(teamPaths.inbox, member.read(items.page));
  router.get(
    teamPaths.signIn,
    visitor.read(async (ctx) => {
      // A link's token is limited per address like a post (the form itself is not).
      if (ctx.query.token !== undefined) await limit(ctx);
      return ways.page(ctx);
    }),
  );
  router.post(teamPaths.signIn, visitor.post(signInForm, ways.withKey, ways.refused));
  router.post(teamPaths.signOut, visitor.post(ways.signOut));
  // The language switcher (kit/views/language-switcher.ts): signed in or not, a cookie, then back to the page.
  router.post(teamPaths.locale, visitor.post((ctx) => keepLocale(ctx, TEAM_PREFIX)));
  router.post(teamPaths.bulkStatus, member.post(bulkStatusForm, items.changeStatus, items.refused));
  router.post(teamPaths.undoStatus, member.post(undoForm, items.undo, items.undoRefused));
  router.get(teamPaths.held, member.read(held.page));
  router.post(teamPaths.held, member.post(heldDecisionForm, held.decide, held.refused));
  router.post('/team/held/blocks/:blockId/unblock', member.post(held.unblock));
  router.get('/team/items/:id', member.read(item.page));
  router.post('/team/items/:id/status', member.post(statusForm, item.changeStatus, item.statusRefused));
  router.post('/team/items/:id/comments', member.post(replyForm, item.reply, item.replyRefused));
  router.post('/team/items/:id/comments/:commentId/pin', member.post(pinForm, item.pin, item.pinRefused));
  router.post('/team/items/:id/merge', member.post(mergeForm, item.merge, item.mergeRefused));
  router.get('/team/items/:id/delete', member.read(item.confirmDelete));
  router.post('/team/items/:id/delete', member.post(item.delete));

  const answer = pageRunner(
    router,
    logger,
    (ctx, status, reason) =>
      // The guard's words send people back to the board; these pages are the team's.
      teamErrorPage(status, reason === CROSS_SITE_REFUSAL ? "The form was sent from another site. Open the team's pages and send it from there." : reason, assets, signedIn.get(ctx)?.project, chosenI18n(ctx, signedIn.get(ctx)?.project.locale)),
    publicOrigin,
  );

  const middleware: Middleware<AppState> = async (ctx, next) => {
    if (ctx.path !== TEAM_PREFIX && !ctx.path.startsWith(`${TEAM_PREFIX}/`)) return next();
    setPageHeaders(ctx);
    if (own.serve(ctx)) return;
    // A team page shows what only the team may see, and its answers set and clear the session's
    // cookie: no cache, shared or the browser's own, keeps any of them.
    ctx.set('Cache-Control', 'no-store');
    await answer(ctx);
  };
  return withRoutes(middleware, router);
}
