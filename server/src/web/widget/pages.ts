import { CreateFeedbackRequestSchema, type ChangelogEntry } from '@feedbackd/sdk/contract';
import { z } from 'zod';
import type { SqlPool } from '../../db/pool.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { Forbidden } from '../../domain/errors.js';
import { ENTRY_PAGE } from '../../domain/changelog/changelog.sql.js';
import { submitOrHold } from '../../domain/feedback/submissions.js';
import type { HotWrites } from '../../domain/hot-writes.js';
import { toggleAnonymousVote, toggleIdentifiedVote } from '../../domain/votes/votes.js';
import { GUARD_REASONS, stampScope, type FormGuard } from '../kit/form-guard.js';
import { formInput, seeOther } from '../kit/forms.js';
import { countFormRefusal } from '../../metrics/form-metrics.js';
import type { SafeHtml } from '../kit/html.js';
import type { I18n } from '../kit/i18n.js';
import { itemId } from '../kit/items.js';
import { readList } from '../kit/lists.js';
import { similarTo } from '../kit/similar.js';
import type { Visitor } from '../kit/visitor-token.js';
import type { WidgetAssets } from './assets.js';
import { panelLink, TABS, type PanelState, type Tab } from './panel-state.js';
import type { WidgetProject } from './widget-project.js';
import { MY_REQUESTS } from './widget.sql.js';
import { panelPage } from './views/panel.js';
import { boardTab, changesTab, feedbackTab, mineTab, similarFragment, similarVoteForms, type FeedbackTabView, type MyRequest } from './views/tabs.js';

/** Who asks, and from which host: what every handler of the panel is given (widget.ts). */
export interface WidgetRequest {
  ctx: AppContext;
  project: WidgetProject;
  state: PanelState;
  /** The identified visitor of the panel's session (session.ts); none for an anonymous one. */
  visitor: Visitor | undefined;
  /** An identified visitor's end user id, or the anonymous voter's hashed address, as on the board. */
  voterKey: string;
  i18n: I18n;
}

/** Items the Board tab lists, and changelog entries What's new shows: a panel is small. */
const BOARD_TAB_SIZE = 20;
const CHANGES_TAB_SIZE = 5;

/**
 * The submit form, as the board's: the API's fields checked by its contract (nothing else is
 * read), and the button it was sent with ("Look for similar feedback first" checks nothing).
 */
const submitForm = formInput(
  z.preprocess(
    (fields: Record<string, unknown>) => ({ ...fields, intent: fields.intent === 'similar' ? 'similar' : 'send', description: fields.description || undefined, type: fields.type || undefined }),
    z.discriminatedUnion('intent', [z.object({ intent: z.literal('similar'), title: z.unknown() }), CreateFeedbackRequestSchema.extend({ intent: z.literal('send') })]),
  ),
  { fields: ['title', 'description', 'type', 'intent'] },
);

/** What the submit form's stamp is bound to (kit/form-guard.ts): this project's panel form, shown to this visitor. */
function submitScope(request: WidgetRequest): string {
  return stampScope(request.project.slug, 'widget', request.visitor);
}

/**
 * The panel's pages and posts, each on the API's own statements and actions; `guard` the board's
 * spam guard (kit/form-guard.ts), which the submit form carries as the board's does.
 */
export function widgetPages(sql: SqlPool, writes: HotWrites, assets: WidgetAssets, guard: FormGuard) {
  const page = (request: WidgetRequest, tab: Tab, body: SafeHtml): SafeHtml =>
    panelPage({ state: request.state, assets: assets.paths, projectName: request.project.name, tab, visitor: request.visitor, i18n: request.i18n, body });
  /** Give feedback, its form with the guard's fields (a new stamp each time it is shown). */
  const formTab = (request: WidgetRequest, view: FeedbackTabView): SafeHtml =>
    page(request, 'feedback', feedbackTab(request.state, { ...view, guard: guard.fields(request.i18n, 'widget', submitScope(request)) }, request.i18n));

  const tabs: Record<Tab, (request: WidgetRequest) => Promise<SafeHtml>> = {
    feedback: async (request) => {
      const { query } = request.ctx;
      return formTab(request, { values: {}, problems: [], sent: query.sent === '1', held: query.held === '1' });
    },
    board: async (request) => {
      const sortBy = request.project.defaultSort ?? 'newest';
      const list = await readList(sql, request.project.id, { sortBy, page: 1, limit: BOARD_TAB_SIZE, status: undefined, type: undefined, search: undefined }, request.voterKey);
      return page(request, 'board', boardTab(request.state, list.items, new Set(list.voted), request.i18n));
    },
    changes: async (request) => {
      const [row] = await sql.query<{ items: string }>('', ENTRY_PAGE, [request.project.id, true, CHANGES_TAB_SIZE, 0]);
      return page(request, 'changes', changesTab(JSON.parse(row!.items) as ChangelogEntry[], request.i18n));
    },
    mine: async (request) => {
      if (!request.visitor) return page(request, 'mine', mineTab(undefined, request.i18n));
      const [row] = await sql.query<{ items: string }>(MY_REQUESTS.name, MY_REQUESTS.text, [request.visitor.endUserId, request.project.id]);
      return page(request, 'mine', mineTab(JSON.parse(row!.items) as MyRequest[], request.i18n));
    },
  };

  return {
    /** GET /w/:slug?origin=…&tab=…: a tab (Give feedback by default); a tab that is none is a 404. */
    panel(request: WidgetRequest): Promise<SafeHtml> {
      const asked = request.ctx.query.tab ?? 'feedback';
      const tab = TABS.find((name) => name === asked);
      if (!tab) throw new AppError(404, 'There is no such tab in this panel.');
      return tabs[tab](request);
    },

    /** GET /w/:slug/similar?title=…: the similar items' markup, as the form shows it without script. */
    async similar(request: WidgetRequest): Promise<undefined> {
      const found = await similarTo(sql, request.project, request.voterKey, request.ctx.query.title);
      request.ctx.set('Cache-Control', 'private, no-cache');
      request.ctx.body = { list: similarFragment(request.state, found, request.i18n).text, forms: similarVoteForms(request.state, found).text };
      return undefined;
    },

    /**
     * POST /w/:slug/items/:id/vote: the API's toggle, identified or anonymous as the board's. The
     * script asks for JSON (the count and its word); a form comes back to its tab.
     */
    async vote(request: WidgetRequest): Promise<undefined> {
      const { ctx, project, visitor, voterKey, i18n } = request;
      const target = { project: project.id, item: itemId(ctx) };
      const body = visitor
        ? await toggleIdentifiedVote(writes.votes, sql, target, { externalId: visitor.externalId }, true)
        : await toggleAnonymousVote(writes.votes, sql, { ...target, voterKey }, true);
      if (ctx.accepts('html', 'json') === 'json') {
        ctx.body = { ...body, label: i18n.text('vote.label', { count: body.voteCount }) };
        return undefined;
      }
      const back = TABS.find((tab) => tab === (ctx.request.body as Record<string, unknown>).back) ?? 'board';
      seeOther(ctx, panelLink(request.state, back));
      return undefined;
    },

    /**
     * POST /w/:slug/new: the API's submission (an identified visitor's item is their end user's),
     * then My requests (or, anonymous, the form again with its thanks); a refused form comes back
     * with the contract's messages; "Look for similar feedback first" shows the similar items.
     * Where the project holds the post (docs/moderation.md), as the board's form does: the form
     * again with a notice that it waits for the team; a blocked author's, the form with the reason.
     * The board's spam guard first (kit/form-guard.ts): a filled honeypot, a post sooner than a
     * person types, a stamp missing, forged, another form's or visitor's, stale or spent: the form
     * again, filled, with the reason (400), nothing posted.
     */
    async submit(request: WidgetRequest): Promise<SafeHtml | undefined> {
      const { ctx, project, visitor, voterKey, state, i18n } = request;
      const input = submitForm(ctx);
      const again = (view: FeedbackTabView) => formTab(request, view);
      if (!input.ok) {
        ctx.status = 400;
        return again({ values: input.values, problems: input.problems });
      }
      if (input.data.intent === 'similar') return again({ values: input.values, problems: [], similar: await similarTo(sql, project, voterKey, input.data.title) });
      const spam = await guard.admit(ctx, submitScope(request));
      if (spam) {
        countFormRefusal('widget', spam);
        ctx.status = 400;
        return again({ values: input.values, problems: [{ message: i18n.text(GUARD_REASONS[spam]) }] });
      }
      const { title, description, type } = input.data;
      const submitter = visitor ? { externalId: visitor.externalId, profile: '{}' } : { voterKey };
      const submission = { project: project.id, title, description: description ?? null, type, metadata: null, ...submitter };
      let answer;
      try {
        answer = await submitOrHold(writes.submissions, sql, submission, project.moderation, true);
      } catch (error) {
        if (!(error instanceof Forbidden)) throw error;
        ctx.status = 403;
        return again({ values: input.values, problems: [{ message: error.message }] });
      }
      // A held post is in nobody's lists yet, My requests included: the form again says why.
      if (answer.held) seeOther(ctx, panelLink(state, 'feedback', { held: '1' }));
      else seeOther(ctx, visitor ? panelLink(state, 'mine') : panelLink(state, 'feedback', { sent: '1' }));
      return undefined;
    },
  };
}
