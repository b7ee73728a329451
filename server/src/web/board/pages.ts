import { type ChangelogEntry, type FeedbackDetail } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../../db/pool.js';
import type { AppContext } from '../../http/context.js';
import { CommentThreads } from '../../domain/feedback/comment-threads.js';
import { DETAIL } from '../../domain/feedback/feedback.sql.js';
import { isSubscribed } from '../../domain/subscriptions/subscriptions.sql.js';
import { CHECK_ANONYMOUS } from '../../domain/votes/votes.sql.js';
import { SHIPPED_IN, STATUS_HISTORY } from './board.sql.js';
import { similarTo } from '../kit/similar.js';
import { ENTRY_PAGE } from '../../domain/changelog/changelog.sql.js';
import { changelogPage } from './views/changelog-page.js';
import { changelogFeed, FEED_SIZE } from './changelog-feed.js';
import type { StatusStep } from '../kit/views/timeline.js';
import type { AssetPaths } from '../kit/assets.js';
import { itemId, itemNotFound } from '../kit/items.js';
import { boardPaths, type BoardProject } from './layout.js';
import { listedPage, parseListQuery, readList, readListRow } from '../kit/lists.js';
import { RenderedPages } from '../kit/rendered-pages.js';
import { boardPage, type ListFilters } from './views/board-page.js';
import { itemPage } from './views/item-page.js';
import { label, type Problem } from '../kit/views/parts.js';
import { ROADMAP_COLUMN_SIZE, ROADMAP_STATUSES, roadmapPage, roadmapStatus } from './views/roadmap-page.js';
import { roadmapColumnPage } from './views/roadmap-column-page.js';
import { AppError } from '../../http/errors.js';
import { similarTexts, submitPage, type SimilarShown } from './views/submit-page.js';
import { chosenI18n } from '../kit/locale-choice.js';
import type { SafeHtml } from '../kit/html.js';
import type { Visitor } from './visitors.js';
import type { FormGuard } from '../kit/form-guard.js';
import type { CommentFormState } from './views/comment-parts.js';

/** What a page of the board is made from: its request, its project, and who is looking. */
export interface BoardRequest {
  ctx: AppContext;
  project: BoardProject;
  /** The visitor the host app identified (visitors.ts); none for an anonymous one. */
  visitor: Visitor | undefined;
  /**
   * The visitor's voter key: an identified visitor's end user id, or the anonymous voter's address
   * hashed as the API hashes it (domain/votes/votes.ts, voterKeyOf).
   */
  voterKey: string;
}

// The submit form's similar items are the widget's too (web/kit/similar.ts).
export { similarTo } from '../kit/similar.js';

/** Entries per page of the board's changelog. */
const CHANGELOG_PAGE_SIZE = 10;

/** Items per page of a roadmap column's own pages. */
const ROADMAP_PAGE_SIZE = 20;

/** The board's pages (GET), on the API's statements: the list, the detail, the vote check. */
export function boardPages(sql: SqlPool, assets: AssetPaths, guard: FormGuard) {
  // The list's pages kept per project (kit/rendered-pages.ts): its first pages, in its languages.
  const renderedLists = new RenderedPages(16);
  // Long threads kept by their stamp, as the API keeps them (domain/feedback/comment-threads.ts).
  const threads = new CommentThreads();
  /**
   * An item's page: the API's detail statement (the submitter's name, never their email or
   * external id, nor the team's internal notes), its vote check for this visitor, and the public
   * status history (board.sql.ts). `refused`: a comment form refused, shown again filled.
   */
  const itemView = async ({ ctx, project, visitor, voterKey }: BoardRequest, refused?: CommentFormState): Promise<SafeHtml> => {
    const id = itemId(ctx);
    const body = await threads.read(sql, DETAIL, id, project.id, null);
    if (body === undefined) throw itemNotFound();
    const [[vote], [history], [shipped], subscribed] = await Promise.all([
      sql.query<{ voted: boolean }>(CHECK_ANONYMOUS.name, CHECK_ANONYMOUS.text, [id, project.id, voterKey]),
      sql.query<{ history: string }>(STATUS_HISTORY.name, STATUS_HISTORY.text, [id, project.id]),
      sql.query<{ entries: string }>(SHIPPED_IN.name, SHIPPED_IN.text, [id, project.id]),
      // Only an identified visitor can be told (an anonymous one has no address): no button, no read.
      visitor ? isSubscribed(sql, { projectId: project.id, feedbackId: id, externalId: visitor.externalId }) : undefined,
    ]);
    const i18n = chosenI18n(ctx, project.locale);
    const shippedIn = JSON.parse(shipped?.entries ?? '[]') as { id: string; title: string }[];
    const item = JSON.parse(body) as FeedbackDetail;
    return itemPage({ project, assets, visitor, item, voted: vote?.voted ?? false, subscribed, history: JSON.parse(history?.history ?? '[]') as StatusStep[], shippedIn, i18n, guard, anonymousComments: project.anonymousComments, refused, heldComment: ctx.query.held === 'comment', heldEdit: ctx.query.held === 'edit' && typeof ctx.query.comment === 'string' ? ctx.query.comment : undefined });
  };
  return {
    /** GET /b/:slug/items/:id (itemView); the comment actions show it again with a refused form. */
    itemView,

    /** GET /b/:slug: the list with the API's query (same names, same validation); a bad value is a 400 page that says which. */
    async board({ ctx, project, visitor, voterKey }: BoardRequest): Promise<SafeHtml> {
      // The team's chosen order (`feedback board brand --default-sort`) when the visitor picked none.
      const asked = ctx.query.sortBy === undefined && project.defaultSort ? { ...ctx.query, sortBy: project.defaultSort } : ctx.query;
      const filters: ListFilters = { status: text(asked.status), type: text(asked.type), search: text(asked.search), sortBy: text(asked.sortBy) };
      const i18n = chosenI18n(ctx, project.locale);
      const view = { project, assets, visitor, filters, here: ctx.url, voted: new Set<string>(), problems: [] as Problem[], pageLink: (n: number) => pageLink(ctx, n), i18n };
      const { query, problems } = parseListQuery(asked);
      if (!query) {
        ctx.status = 400;
        return boardPage({ ...view, problems });
      }
      const row = await readListRow(sql, project.id, query, voterKey);
      // Everything the page is made of besides the project (the owner) and the assets (fixed).
      const key = `${ctx.origin}\n${ctx.url}\n${i18n.locale}\n${visitor ? JSON.stringify(visitor) : ''}\n${row.total}\n${row.voted ?? ''}\n${row.items}`;
      return renderedLists.page(project, key, () => {
        const list = listedPage(row, query);
        return boardPage({ ...view, voted: new Set(list.voted), list });
      });
    },

    /**
     * GET /b/:slug/items/:id: the API's detail statement (the submitter's name, never their email
     * or external id), its vote check for this visitor, and the public status history (board.sql.ts).
     */
    item: (request: BoardRequest): Promise<SafeHtml> => itemView(request),

    /**
     * GET /b/:slug/new: the empty form; with `?title=`, that title typed in and the items like it
     * (where a vote on one of them, without script, comes back to).
     */
    async newItem({ ctx, project, visitor, voterKey }: BoardRequest): Promise<SafeHtml> {
      const title = text(ctx.query.title);
      const i18n = chosenI18n(ctx, project.locale);
      // `held=1`: a held submission was sent here (actions.ts); the notice says it waits for the team.
      if (title === undefined) return submitPage({ project, assets, visitor, values: {}, problems: [], i18n, guard, held: ctx.query.held === '1' });
      return submitPage({ project, assets, visitor, values: { title }, problems: [], similar: await similarTo(sql, project, voterKey, title), i18n, guard });
    },

    /**
     * GET /b/:slug/similar?title=…: the submit form's script asks it while a title is typed, and
     * shows the answer as the form shows it without script (views/submit-page.ts).
     */
    async similar({ ctx, project, voterKey }: BoardRequest): Promise<undefined> {
      const found = await similarTo(sql, project, voterKey, ctx.query.title);
      const { items, voted } = found === 'no-title' ? { items: [], voted: new Set<string>() } : found;
      // The texts in the page's language, as the form without script shows them (views/submit-page.ts).
      const i18n = chosenI18n(ctx, project.locale);
      ctx.set('Cache-Control', 'private, no-cache');
      ctx.body = {
        items: items.map((item) => ({
          id: item.id,
          title: item.title,
          status: item.status,
          statusText: label(item.status, i18n),
          voteCount: item.voteCount,
          voteLabel: i18n.text('vote.label', { count: item.voteCount }),
          voted: voted.has(item.id),
          url: boardPaths.item(project.slug, item.id),
          voteUrl: boardPaths.vote(project.slug, item.id),
        })),
        texts: similarTexts(i18n),
      };
      return undefined;
    },

    /**
     * GET /b/:slug/changelog: the published entries, newest first, a page at a time, read by the
     * API's own statement for a public key (domain/changelog/changelog.sql.ts). A page that is not
     * a whole number from 1 is a 400 page.
     */
    async changelog({ ctx, project, visitor }: BoardRequest): Promise<SafeHtml> {
      const asked = text(ctx.query.page) ?? '1';
      const page = /^\d{1,7}$/.test(asked) ? Number(asked) : 0;
      if (page < 1) throw new AppError(400, 'The page number must be a whole number from 1.');
      const [row] = await sql.query<{ total: number; items: string }>('', ENTRY_PAGE, [project.id, true, CHANGELOG_PAGE_SIZE, (page - 1) * CHANGELOG_PAGE_SIZE]);
      const entries = JSON.parse(row!.items) as ChangelogEntry[];
      const totalPages = Math.ceil(row!.total / CHANGELOG_PAGE_SIZE);
      return changelogPage({ project, assets, visitor, entries, page, totalPages, pageLink: (n) => pageLink(ctx, n), i18n: chosenI18n(ctx, project.locale) });
    },

    /** GET /b/:slug/changelog.atom: the newest published entries as an Atom feed (changelog-feed.ts). */
    async changelogFeed({ ctx, project }: BoardRequest): Promise<undefined> {
      const [row] = await sql.query<{ total: number; items: string }>('', ENTRY_PAGE, [project.id, true, FEED_SIZE, 0]);
      const feed = changelogFeed({ ...project, origin: project.origin ?? `${ctx.protocol}://${ctx.host}` }, JSON.parse(row!.items) as ChangelogEntry[], chosenI18n(ctx, project.locale));
      ctx.set('Content-Type', 'application/atom+xml; charset=utf-8');
      ctx.body = feed;
      return undefined;
    },

    /** GET /b/:slug/roadmap: the API's list by votes, once per column's status. */
    async roadmap({ ctx, project, visitor, voterKey }: BoardRequest): Promise<SafeHtml> {
      const columns = await Promise.all(
        ROADMAP_STATUSES.map(async (status) => ({
          status,
          ...(await readList(sql, project.id, { status: [status], sortBy: 'votes', page: 1, limit: ROADMAP_COLUMN_SIZE, type: undefined, search: undefined }, voterKey)),
        })),
      );
      const voted = new Set(columns.flatMap((column) => column.voted));
      return roadmapPage({ project, assets, visitor, columns, voted, i18n: chosenI18n(ctx, project.locale) });
    },

    /**
     * GET /b/:slug/roadmap/:status: one column, a page at a time, by votes: the board's list query
     * (its page checked by the same contract) on the API's list statement. A status that is no
     * column of the roadmap is a 404.
     */
    async roadmapColumn({ ctx, project, visitor, voterKey }: BoardRequest): Promise<SafeHtml> {
      const status = roadmapStatus(ctx.params.status);
      if (!status) throw new AppError(404, 'There is no such column on this roadmap.');
      const asked: Record<string, unknown> = { status, sortBy: 'votes', limit: String(ROADMAP_PAGE_SIZE) };
      if (ctx.query.page !== undefined) asked.page = ctx.query.page;
      const view = { project, assets, visitor, status, i18n: chosenI18n(ctx, project.locale), here: ctx.url, voted: new Set<string>(), problems: [] as Problem[], pageLink: (n: number) => pageLink(ctx, n) };
      const { query, problems } = parseListQuery(asked);
      if (!query) {
        ctx.status = 400;
        return roadmapColumnPage({ ...view, problems });
      }
      const list = await readList(sql, project.id, query, voterKey);
      return roadmapColumnPage({ ...view, voted: new Set(list.voted), list });
    },
  };
}

/** One text value of the query (the first, when repeated), to show in the form again. */
function text(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The same list at another page: the query as given, with its page changed. */
function pageLink(ctx: AppContext, n: number): string {
  const params = new URLSearchParams(ctx.querystring);
  params.set('page', String(n));
  return `${ctx.path}?${params.toString()}`;
}
