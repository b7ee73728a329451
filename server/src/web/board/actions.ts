import { CreateFeedbackRequestSchema } from '@feedbackd/sdk/contract';
import { z } from 'zod';
import type { SqlPool } from '../../db/pool.js';
import { AppError } from '../../http/errors.js';
import { Forbidden } from '../../domain/errors.js';
import { submitOrHold } from '../../domain/feedback/submissions.js';
import type { HotWrites } from '../../domain/hot-writes.js';
import { toggleAnonymousVote, toggleIdentifiedVote } from '../../domain/votes/votes.js';
import type { AssetPaths } from '../kit/assets.js';
import type { BoardRequest } from './pages.js';
import { similarTo } from './pages.js';
import { itemId, itemNotFound } from '../kit/items.js';
import type { SafeHtml } from '../kit/html.js';
import { formField, formInput, returnPathUnder, seeOther, type FormData, type FormValues } from '../kit/forms.js';
import type { FormRefusal } from '../kit/pages.js';
import { boardPaths } from '../../board-paths.js';
import { submitPage, submitScope } from './views/submit-page.js';
import { chosenI18n } from '../kit/locale-choice.js';
import { endSession, exchangeToken, startSession } from './visitors.js';
import { GUARD_REASONS, type FormGuard } from '../kit/form-guard.js';
import { countFormRefusal } from '../../metrics/form-metrics.js';

import { subscribe, unsubscribe } from '../../domain/subscriptions/subscriptions.sql.js';

/**
 * The submit form: the API's fields (nothing else it sends is read: no metadata, no endUser),
 * checked by the contract, and the button it was sent with. "Look for similar feedback first"
 * (the form without script) checks nothing: it asks for the items like the title. An empty
 * optional field of a form means "not given", as an absent JSON field does.
 */
export const submitForm = formInput(
  z.preprocess(
    (fields: Record<string, unknown>) => ({ ...fields, intent: fields.intent === 'similar' ? 'similar' : 'send', description: fields.description || undefined, type: fields.type || undefined }),
    z.discriminatedUnion('intent', [z.object({ intent: z.literal('similar'), title: z.unknown() }), CreateFeedbackRequestSchema.extend({ intent: z.literal('send') })]),
  ),
  { fields: ['title', 'description', 'type', 'intent'] },
);

/**
 * The board's posts. Each calls the API's own implementation of the action (domain/: the same
 * group commits, the same statements, the same anonymous voter), so the board is no second
 * implementation of a vote or a submission. Who may post and how often is checked before these
 * run (board.ts).
 */
export function boardActions(sql: SqlPool, writes: HotWrites, assets: AssetPaths, guard: FormGuard) {
  return {
    /**
     * POST /b/:slug/items/:id/vote: toggles the visitor's vote. A script that asks for JSON gets
     * the API's answer (`{ voted, voteCount }`) and the word under the count in the page's
     * language (`label`: a language's plural forms are the catalogue's, not the script's); a form
     * is sent back to the page it came from.
     */
    async vote({ ctx, project, visitor, voterKey }: BoardRequest): Promise<void> {
      const id = itemId(ctx);
      const target = { project: project.id, item: id };
      const body = visitor
        ? await toggleIdentifiedVote(writes.votes, sql, target, { externalId: visitor.externalId }, true)
        : await toggleAnonymousVote(writes.votes, sql, { ...target, voterKey }, true);
      if (ctx.accepts('html', 'json') === 'json') {
        ctx.body = { ...body, label: chosenI18n(ctx, project.locale).text('vote.label', { count: body.voteCount }) };
        return;
      }
      seeOther(ctx, safeReturn(formField(ctx, 'return'), project.slug) ?? boardPaths.item(project.slug, id));
    },

    /**
     * POST /b/:slug/items/:id/subscription (`subscribe` yes or no): an identified visitor's choice,
     * through the API's own statements (domain/subscriptions/subscriptions.sql.ts), then back to the item.
     */
    async subscription({ ctx, project, visitor }: BoardRequest): Promise<void> {
      const id = itemId(ctx);
      if (!visitor) throw new AppError(403, 'Sign in through the app that sent you here to subscribe: the board can only tell people it knows.');
      const wanted = formField(ctx, 'subscribe');
      if (wanted !== 'yes' && wanted !== 'no') throw new AppError(400, 'This form was not sent as the page makes it: go back to the item and try again.');
      const target = { projectId: project.id, feedbackId: id };
      const found = wanted === 'yes' ? await subscribe(sql, { ...target, endUser: { externalId: visitor.externalId } }) : (await unsubscribe(sql, { ...target, endUserId: visitor.endUserId })).item;
      if (!found) throw itemNotFound();
      seeOther(ctx, boardPaths.item(project.slug, id));
    },

    /** POST /b/:slug/new, checked (submitForm): the new item, then its page; or the items like the title. */
    async submit({ ctx, project, visitor, voterKey }: BoardRequest, input: FormData<typeof submitForm>, values: FormValues): Promise<SafeHtml | undefined> {
      // "Look for similar feedback first": the form again, with the items like the title, and nothing posted.
      const i18n = chosenI18n(ctx, project.locale);
      if (input.intent === 'similar') return submitPage({ project, assets, visitor, values, problems: [], similar: await similarTo(sql, project, voterKey, input.title), i18n, guard });
      // A bot's post (kit/form-guard.ts), or the form's stamp spent by an earlier post: the form
      // again, filled, with the reason (and a new stamp); nothing posted.
      const spam = await guard.admit(ctx, submitScope(project.slug, visitor));
      if (spam) {
        countFormRefusal('submit', spam);
        ctx.status = 400;
        return submitPage({ project, assets, visitor, values, problems: [{ message: i18n.text(GUARD_REASONS[spam]) }], i18n, guard });
      }
      const { title, description, type } = input;
      const item = { project: project.id, title, description: description ?? null, type, metadata: null };
      // An identified visitor's item is their end user's, as the API's submission with only an externalId (no profile change).
      const submitter = visitor ? { externalId: visitor.externalId, profile: '{}' } : { voterKey };
      const submission = { ...item, ...submitter };
      try {
        const { item, held } = await submitOrHold(writes.submissions, sql, submission, project.moderation ?? null, true);
        // Where the project holds such a post (docs/moderation.md), it waits for the team: the form again, with a notice.
        if (held) {
          seeOther(ctx, `${boardPaths.submit(project.slug)}?held=1`);
          return undefined;
        }
        seeOther(ctx, boardPaths.item(project.slug, (JSON.parse(item) as { id: string }).id));
        return undefined;
      } catch (error) {
        if (!(error instanceof Forbidden)) throw error;
        // A blocked author: the form comes back filled in, with the reason.
        ctx.status = 403;
        return submitPage({ project, assets, visitor, values, problems: [{ message: error.message }], i18n: chosenI18n(ctx, project.locale), guard });
      }
    },

    /** A refused submission: the form again (400) with the contract's messages beside its fields. */
    submitAgain({ ctx, project, visitor }: BoardRequest, { values, problems }: FormRefusal): SafeHtml {
      return submitPage({ project, assets, visitor, values, problems, i18n: chosenI18n(ctx, project.locale), guard });
    },

    /**
     * GET /b/:slug/sign-in?token=…[&to=/b/slug/…]: the host app's signed link (visitors.ts). The
     * token is exchanged once for a session cookie, then the visitor is sent on without it in the
     * address (nor in a Referer, nor in the history's next entry).
     */
    async signIn({ ctx, project }: BoardRequest): Promise<undefined> {
      // A sign-in answer, refused or not, is nobody's to keep: its route (board.ts) says no-store.
      const token = ctx.query.token;
      if (typeof token !== 'string' || token === '' || token.length > 8_000) throw new AppError(400, 'This sign-in link has no token. Go back to the app that sent you here and open the board again.');
      startSession(ctx, project, await exchangeToken(sql, project, token));
      seeOther(ctx, safeReturn(ctx.query.to, project.slug) ?? boardPaths.board(project.slug));
      return undefined;
    },

    /** POST /b/:slug/sign-out: this browser is anonymous again on this board. */
    async signOut({ ctx, project }: BoardRequest): Promise<void> {
      endSession(ctx, project);
      seeOther(ctx, boardPaths.board(project.slug));
    },
  };
}

/** Where a vote may send the visitor back: a path of this project's board (kit/forms.ts). */
export function safeReturn(value: unknown, slug: string): string | undefined {
  return returnPathUnder(value, boardPaths.board(slug));
}
