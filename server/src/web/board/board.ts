import Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Middleware } from 'koa';
import type { SqlPool } from '../../db/pool.js';
import { voterKeyOf } from '../../domain/votes/votes.js';
import { clientIp } from '../../http/edge.js';
import type { AppContext, AppState } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import type { RateLimiter } from '../../limits/lease-client.js';
import type { Logger } from '../../logger.js';
import type { HotWrites } from '../../domain/hot-writes.js';
import { ASSETS_PREFIX, type BoardAssets } from '../kit/assets.js';
import { boardActions, submitForm } from './actions.js';
import { boardPages, type BoardRequest } from './pages.js';
import { boardProjects, type BoardProject } from './projects.js';
import { postLimit, projectPolicy, setPageHeaders, spendBudget } from '../kit/guards.js';
import { DEFAULT_MIN_FILL_MS, formGuard } from '../kit/form-guard.js';
import { boardComments } from './comments.js';
import { pageRunner, routeSteps } from '../kit/pages.js';
import { chosenI18n, keepLocale } from '../kit/locale-choice.js';
import { boardPaths } from '../../board-paths.js';
import { visitorOf } from './visitors.js';
import { LOGO_ROUTE, serveLogo } from './logo.js';
import { withRoutes } from '../../http/mounted-routes.js';
import { errorPage } from './views/error-page.js';
import { unsubscribeRoutes } from './unsubscribe.js';

/** Where the boards are: /b/<project slug>. */
export const BOARD_PREFIX = '/b/';

export interface BoardOptions {
  sql: SqlPool;
  /** The API's group commits, which the board's posts join (domain/hot-writes.ts). */
  writes: HotWrites;
  /** The server's rate limiter, which the board's posts spend per address; none when the limit is off. */
  limiter: RateLimiter | undefined;
  logger: Logger;
  /** The pages' stylesheet and scripts (board/assets.ts), read and compressed once for the board and the team's pages. */
  assets: BoardAssets;
  /** The server's public origin (`serve --public-url`): the only host pages are answered for, and the base of redirects. */
  publicOrigin?: string | undefined;
  /** The server's voter secret: the board's anonymous visitor is keyed as the API's anonymous caller. */
  voterSecret: Buffer;
  /** The operator side's ORM: a visitor's edit or delete of their comment runs its service (domain/comments/comments.service.ts). */
  orm: () => Promise<MikroORM>;
  /** The shortest time to fill a comment or the submit form (kit/form-guard.ts); 3 seconds unless set (tests set 0). The widget's form takes the same. */
  minFillMs?: number | undefined;
  /** How long a project's settings are trusted, in ms (projects.ts); BOARD_PROJECT_CACHE_TTL_MS unless set (tests that change them set less). */
  projectCacheTtlMs?: number | undefined;
}

/**
 * The public board (docs/board.md): the pages under /b/:slug and their assets under /assets/,
 * answered before the API asks for a key (they have none). Everything under those two prefixes is
 * answered here, as HTML: a page, or the board's page for a refusal (404, 403, 429, ...).
 */
export function board(options: BoardOptions): Middleware<AppState> {
  const { sql, logger } = options;
  const { assets } = options;
  // The forms' stamps are signed with the voter secret (a secret the server already keeps, the
  // same in every process) and spent in the database, which every process shares.
  const guard = formGuard(options.voterSecret, sql, options.minFillMs ?? DEFAULT_MIN_FILL_MS);
  const pages = boardPages(sql, assets.paths, guard);
  const actions = boardActions(sql, options.writes, assets.paths, guard);
  const comments = boardComments({ sql, orm: options.orm, guard, spend: spendBudget(options.limiter, logger, 'comment'), itemView: pages.itemView });
  const projectBySlug = boardProjects(sql, options.projectCacheTtlMs);
  /**
   * The page's project (cached for about a second: projects.ts) and who is looking: the
   * identified visitor of a session cookie, whose voter key is their end user's id as in the API's
   * identified votes, or else the anonymous voter of the address. An unknown project, or one whose
   * board is off, is a 404.
   */
  /**
   * The cached project, with where this request's pages are (their link previews' absolute URLs):
   * one object per cached project and origin, so that the pages kept for a project
   * (kit/rendered-pages.ts) live as long as its cached settings do, and no longer.
   */
  const withOrigins = new WeakMap<BoardProject, Map<string, BoardProject>>();
  const withOrigin = (found: BoardProject, origin: string): BoardProject => {
    let byOrigin = withOrigins.get(found);
    if (!byOrigin) withOrigins.set(found, (byOrigin = new Map()));
    let project = byOrigin.get(origin);
    // A Host header is the client's to choose: past a few origins, each request makes its own.
    if (!project) {
      project = { ...found, origin };
      if (byOrigin.size < 8) byOrigin.set(origin, project);
    }
    return project;
  };
  const boardRequest = async (ctx: AppContext): Promise<BoardRequest> => {
    const found = await projectBySlug(String(ctx.params.slug));
    if (!found) throw new AppError(404, 'There is no board at this address.');
    ctx.state.boardSlug = found.slug;
    ctx.state.boardLocale = found.locale ?? undefined;
    projectPolicy(ctx, { frameOrigins: found.frameOrigins, styleHash: found.accent?.hash });
    const project = withOrigin(found, options.publicOrigin ?? `${ctx.protocol}://${ctx.host}`);
    const visitor = visitorOf(ctx, project);
    return { ctx, project, visitor, voterKey: visitor ? visitor.endUserId : voterKeyOf(options.voterSecret, project.voterSalt, clientIp(ctx)) };
  };
  // A post: from our own pages only, within the address's budget (kit/pages.ts, routeSteps).
  const { read, post } = routeSteps({ limit: postLimit(options.limiter, logger), who: boardRequest, publicOrigin: options.publicOrigin });
  // A comment spends a budget of its own (comments.ts), and its refusal keeps what was typed: no budget is spent before it.
  const commentPost = routeSteps({ limit: () => Promise.resolve(), who: boardRequest, publicOrigin: options.publicOrigin }).post;

  const noStore: Middleware<AppState> = (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    return next();
  };
  const unsubscribes = unsubscribeRoutes(sql, assets.paths, options.voterSecret, postLimit(options.limiter, logger));

  const router = new Router<AppState>({ sensitive: true, strict: true });
  // Before the board's own steps: the link works for a board that is off, and from a mail client (no origin).
  router.get('/b/:slug/unsubscribe', unsubscribes.read);
  router.post('/b/:slug/unsubscribe', unsubscribes.post);
  router.get('/b/:slug', read(pages.board));
  router.get('/b/:slug/items/:id', read(pages.item));
  router.get('/b/:slug/new', read(pages.newItem));
  router.get('/b/:slug/changelog', read(pages.changelog));
  router.get('/b/:slug/changelog.atom', read(pages.changelogFeed));
  router.get('/b/:slug/roadmap', read(pages.roadmap));
  router.get('/b/:slug/roadmap/:status', read(pages.roadmapColumn));
  router.get('/b/:slug/similar', read(pages.similar));
  // A sign-in answer is nobody's to keep, a refusal before the token is read (an unknown board) included.
  router.get('/b/:slug/sign-in', noStore, read(actions.signIn));
  router.post('/b/:slug/new', post(submitForm, actions.submit, actions.submitAgain));
  router.post('/b/:slug/items/:id/vote', post(actions.vote));
  router.post('/b/:slug/items/:id/comments', commentPost(comments.create));
  router.post('/b/:slug/items/:id/comments/:commentId/edit', post(comments.edit));
  router.post('/b/:slug/items/:id/comments/:commentId/delete', post(comments.delete));
  router.post('/b/:slug/items/:id/subscription', post(actions.subscription));
  router.post('/b/:slug/sign-out', post(actions.signOut));
  // The language switcher (kit/views/language-switcher.ts): a cookie, then back to the page.
  router.post('/b/:slug/locale', post(({ ctx, project }) => keepLocale(ctx, boardPaths.board(project.slug))));

  // A refusal is in the reader's language too; its switcher comes back to the refused page when that was a page (a GET).
  const refused = (ctx: AppContext, status: number, reason: string) => {
    const slug = ctx.state.boardSlug;
    const here = slug !== undefined && ctx.method === 'GET' ? ctx.url : undefined;
    return errorPage(status, reason, assets.paths, slug, { i18n: chosenI18n(ctx, ctx.state.boardLocale), here });
  };
  const answer = pageRunner(router, logger, refused, options.publicOrigin);

  const middleware: Middleware<AppState> = async (ctx, next) => {
    const isAsset = ctx.path.startsWith(ASSETS_PREFIX);
    if (!isAsset && !ctx.path.startsWith(BOARD_PREFIX)) return next();
    setPageHeaders(ctx);
    if (isAsset && (ctx.method === 'GET' || ctx.method === 'HEAD') && assets.serve(ctx)) return;
    if (!isAsset && (await serveLogo(sql, ctx))) return;
    // Pages change with every vote and are the visitor's own (their votes): kept by no shared
    // cache. (A sign-in answer says no-store instead: its route sets it after this.) Anything else
    // under /assets/ is a 404 page.
    ctx.set('Cache-Control', 'private, no-cache');
    await answer(ctx);
  };
  return withRoutes(middleware, router, [{ method: 'GET', path: LOGO_ROUTE }]);
}
