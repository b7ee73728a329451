import type { MikroORM } from '@mikro-orm/postgresql';
import { CommentContentSchema, END_USER_COMMENT_MAX_LENGTH, ERROR_MESSAGES } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../../db/pool.js';
import { UUID } from '../../db/uuid.js';
import type { AppContext } from '../../http/context.js';
import { Forbidden, InvalidInput } from '../../domain/errors.js';
import { AppError } from '../../http/errors.js';
import { commentNotFound } from '../../domain/errors.js';
import { createComment, publicComment } from '../../domain/comments/comments.js';
import { holdComment } from '../../domain/moderation/held-posts.js';
import { holdReason } from '../../domain/moderation/hold-reason.js';
import { deleteComment, missing, updateComment } from '../../domain/comments/comments.service.js';
import { countFormRefusal, type FormRefusalReason } from '../../metrics/form-metrics.js';
import type { FormGuard } from '../kit/form-guard.js';
import { formField, seeOther } from '../kit/forms.js';
import type { SafeHtml } from '../kit/html.js';
import type { I18n } from '../kit/i18n.js';
import { itemId } from '../kit/items.js';
import { chosenI18n } from '../kit/locale-choice.js';
import { boardPaths } from '../../board-paths.js';
import { date } from '../kit/views/list-parts.js';
import type { BoardRequest } from './pages.js';
import { commentFragment, commentScope, type CommentFormState } from './views/comment-parts.js';

/*
 * The board's comment posts (docs/board.md, "Conversation"): a comment or a reply, an edit and a
 * delete of one's own. Each runs the API's implementation (domain/comments/comments.ts, createComment: one
 * statement; domain/comments/comments.service.ts for edits and deletes, with the author's rules), as the
 * visitor's end user, or anonymously where the project allows it. A refusal (spam, the address's
 * budget, the text, the author's rules) shows the item page again with the form filled and the
 * reason in an alert; a script asking for JSON gets the reason as `{ error }` instead.
 */

export interface BoardCommentDeps {
  sql: SqlPool;
  orm: () => Promise<MikroORM>;
  guard: FormGuard;
  /** Spends the address's budget of comments: undefined, or the seconds until it comes back (kit/guards.ts, spendBudget). */
  spend: (ctx: AppContext) => Promise<number | undefined>;
  /** The item's page, with a refused form shown again (pages.ts, itemView). */
  itemView: (request: BoardRequest, refused?: CommentFormState) => Promise<SafeHtml>;
}

/** Why a comment was refused, in the page's language, by the API's message or the guard's reason. */
function reasonText(i18n: I18n, reason: FormRefusalReason | string, retryAfter?: number): string {
  switch (reason) {
    case 'honeypot':
      return i18n.text('form.problem.honeypot');
    case 'too_fast':
      return i18n.text('form.problem.tooFast');
    case 'bad_stamp':
      return i18n.text('form.problem.stale');
    case 'spent_stamp':
      return i18n.text('form.problem.spent');
    case 'rate_limit':
      return i18n.text('comments.problem.limit', { seconds: retryAfter ?? 60 });
    case 'empty':
      return i18n.text('comments.problem.empty');
    case 'long':
      return i18n.text('comments.problem.tooLong', { max: END_USER_COMMENT_MAX_LENGTH });
    case ERROR_MESSAGES.anonymousCommentsOff:
      return i18n.text('comments.signInToComment');
    case ERROR_MESSAGES.commentAnswered:
      return i18n.text('comments.problem.answered');
    case ERROR_MESSAGES.notCommentAuthor:
      return i18n.text('comments.problem.notAuthor');
    case ERROR_MESSAGES.postingBlocked:
      return i18n.text('contract.postingBlocked');
    default:
      return i18n.text('comments.problem.parent');
  }
}

/** The text of a comment's form, checked as the API checks a public key's: trimmed, 1 to 4,000 characters. */
function contentOf(ctx: AppContext): { content: string } | { problem: 'empty' | 'long'; typed: string } {
  const given = formField(ctx, 'content');
  const typed = typeof given === 'string' ? given : '';
  const parsed = CommentContentSchema.safeParse(typed);
  if (!parsed.success) return { problem: typed.trim() === '' ? 'empty' : 'long', typed };
  if (parsed.data.length > END_USER_COMMENT_MAX_LENGTH) return { problem: 'long', typed };
  return { content: parsed.data };
}

const wantsJson = (ctx: AppContext) => ctx.accepts('html', 'json') === 'json';

export function boardComments(deps: BoardCommentDeps) {
  const { sql, guard } = deps;
  /**
   * A refusal: the page again, its form filled (`status`), or for a script the reason as JSON with
   * a new stamp for the form's next post (`stamp`: the one sent may be spent).
   */
  const refuse = async (request: BoardRequest, status: number, state: CommentFormState & { problem: string; scope?: string }): Promise<SafeHtml | undefined> => {
    request.ctx.status = status;
    if (wantsJson(request.ctx)) {
      request.ctx.body = { error: state.problem, ...(state.scope === undefined ? {} : { stamp: guard.stamp(state.scope) }) };
      return undefined;
    }
    const page = await deps.itemView(request, state);
    request.ctx.status = status;
    return page;
  };
  const em = async () => (await deps.orm()).em.fork();

  return {
    /**
     * POST /b/:slug/items/:id/comments: a comment, or a reply (`parentId`). Checked in the order
     * that costs least: the guard's fields, the address's budget, the text; then the form's stamp
     * is spent (once: kit/form-guard.ts) and the comment written, one statement each. A form goes
     * back to the item, at the new comment; a script gets `{ id, html, count, stamp }`, `stamp` the
     * form's next (as with every answer to a script).
     */
    async create(request: BoardRequest): Promise<SafeHtml | undefined> {
      const { ctx, project, visitor } = request;
      const i18n = chosenI18n(ctx, project.locale);
      const id = itemId(ctx);
      const parent = formField(ctx, 'parentId');
      const parentId = typeof parent === 'string' && parent !== '' ? parent : undefined;
      const given = formField(ctx, 'content');
      const scope = commentScope(project.slug, id, parentId, visitor);
      const state = { form: parentId ? `reply:${parentId}` : 'new', content: typeof given === 'string' ? given : '', scope };
      const spam = guard.check(ctx, scope);
      if (spam) {
        countFormRefusal('comment', spam);
        return refuse(request, 400, { ...state, problem: reasonText(i18n, spam) });
      }
      const retryAfter = await deps.spend(ctx);
      if (retryAfter !== undefined) {
        countFormRefusal('comment', 'rate_limit');
        ctx.set('Retry-After', String(retryAfter));
        return refuse(request, 429, { ...state, problem: reasonText(i18n, 'rate_limit', retryAfter) });
      }
      const text = contentOf(ctx);
      if ('problem' in text) return refuse(request, 400, { ...state, problem: reasonText(i18n, text.problem) });
      if (parentId !== undefined && !UUID.test(parentId)) return refuse(request, 400, { ...state, problem: reasonText(i18n, 'parent') });
      // The visitor's end user by externalId alone: the profile is what the sign-in link recorded.
      const author = visitor ? { kind: 'user' as const, endUser: { externalId: visitor.externalId } } : { kind: 'anonymous' as const };
      // An anonymous visitor's comment carries their voter key, as the API's does: a block names it.
      const input = { project: project.id, item: id, content: text.content, author, parentId, secret: false, voterKey: visitor ? undefined : request.voterKey };
      // Where the project holds such a comment (docs/moderation.md), it waits for the team: the
      // item again with a notice (a script gets `{ held, message }` and shows it by the form).
      // A project that holds nothing has no policy: nothing to ask (as the API's comment route).
      const policy = project.moderation;
      const reason = policy && holdReason(policy, Boolean(visitor), [text.content]);
      const spent = await guard.spend(ctx);
      if (spent) {
        countFormRefusal('comment', spent);
        return refuse(request, 400, { ...state, problem: reasonText(i18n, spent) });
      }
      let created;
      try {
        if (reason) {
          await holdComment(sql, input, reason);
          if (wantsJson(ctx)) {
            ctx.status = 202;
            ctx.body = { held: true, message: i18n.text('comments.held'), stamp: guard.stamp(scope) };
          } else seeOther(ctx, `${boardPaths.item(project.slug, id)}?held=comment#comment-form-title`);
          return undefined;
        }
        created = await createComment(sql, input);
      } catch (error) {
        if (error instanceof InvalidInput) return refuse(request, 400, { ...state, problem: reasonText(i18n, 'parent') });
        if (error instanceof Forbidden) return refuse(request, 403, { ...state, problem: reasonText(i18n, error.message) });
        throw error;
      }
      const comment = publicComment(created.comment);
      if (wantsJson(ctx)) {
        const fragment = commentFragment(comment, { slug: project.slug, itemId: id, comments: [], visitor, anonymousComments: project.anonymousComments ?? false, guard, when: (iso) => date(iso, i18n), i18n });
        ctx.status = 201;
        ctx.body = { id: comment.id, parentId: comment.parentId ?? null, html: fragment.text, count: i18n.text('count.comment', { count: created.commentCount }), stamp: guard.stamp(scope) };
        return undefined;
      }
      seeOther(ctx, `${boardPaths.item(project.slug, id)}#comment-${comment.id}`);
      return undefined;
    },

    /**
     * POST /b/:slug/items/:id/comments/:commentId/edit: the visitor's own comment, until the team
     * has answered it. It passes moderation as their new comment would (docs/moderation.md,
     * "Edits"): a blocked author is refused, and an edit the project holds waits for the team
     * while the comment keeps its text; the page then says so under the comment (`held=edit`).
     */
    async edit(request: BoardRequest): Promise<SafeHtml | undefined> {
      const { ctx, project } = request;
      const visitor = ownerOf(request);
      const i18n = chosenI18n(ctx, project.locale);
      const id = itemId(ctx);
      const commentId = commentIdOf(ctx);
      const state = { form: `edit:${commentId}`, content: String(formField(ctx, 'content') ?? '') };
      const text = contentOf(ctx);
      if ('problem' in text) return refuse(request, 400, { ...state, problem: reasonText(i18n, text.problem) });
      let held = false;
      try {
        const actor = { secret: false, endUserId: visitor.externalId, moderation: project.moderation };
        const result = await updateComment(await em(), project.id, id, commentId, { content: text.content }, actor);
        if (typeof result === 'string') throw missing(result);
        held = result.held !== undefined;
      } catch (error) {
        if (error instanceof Forbidden) return refuse(request, 403, { ...state, problem: reasonText(i18n, error.message) });
        throw error;
      }
      seeOther(ctx, `${boardPaths.item(project.slug, id)}${held ? `?held=edit&comment=${commentId}` : ''}#comment-${commentId}`);
      return undefined;
    },

    /** POST /b/:slug/items/:id/comments/:commentId/delete: the visitor's own comment (and its replies), until the team has answered it. */
    async delete(request: BoardRequest): Promise<SafeHtml | undefined> {
      const { ctx, project } = request;
      const visitor = ownerOf(request);
      const i18n = chosenI18n(ctx, project.locale);
      const id = itemId(ctx);
      const commentId = commentIdOf(ctx);
      try {
        const result = await deleteComment(await em(), project.id, id, commentId, { secret: false, endUserId: visitor.externalId });
        if (typeof result === 'string') throw missing(result);
      } catch (error) {
        if (error instanceof Forbidden) return refuse(request, 403, { form: `edit:${commentId}`, content: '', problem: reasonText(i18n, error.message) });
        throw error;
      }
      seeOther(ctx, `${boardPaths.item(project.slug, id)}#comments-title`);
      return undefined;
    },
  };
}

/** Only an identified visitor changes a comment: an anonymous one has no comment that is provably theirs. */
function ownerOf({ visitor }: BoardRequest) {
  if (!visitor) throw new AppError(403, ERROR_MESSAGES.notCommentAuthor);
  return visitor;
}

/** The comment of the path, which must look like an id (else no comment has it). */
function commentIdOf(ctx: AppContext): string {
  const id = String(ctx.params.commentId);
  if (!UUID.test(id)) throw commentNotFound();
  return id.toLowerCase();
}
