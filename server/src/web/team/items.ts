import type { MikroORM } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { AddCommentRequestSchema, ERROR_MESSAGES, FeedbackStatusSchema, MergeFeedbackRequestSchema, type FeedbackDetail, type FeedbackListItem } from '@feedbackd/sdk/contract';
import { addComment, missing, updateComment } from '../../domain/comments/comments.service.js';
import { InvalidInput } from '../../domain/errors.js';
import { AppError } from '../../http/errors.js';
import { UUID } from '../../db/uuid.js';
import { deleteItem, updateItem } from '../../domain/items/items.service.js';
import { mergeItems } from '../../domain/items/merge.service.js';
import type { SqlPool } from '../../db/pool.js';
import { requestTransactions } from '../../db/request-transaction.js';
import { CommentThreads } from '../../domain/feedback/comment-threads.js';
import { DETAIL_WITH_HISTORY } from '../../domain/feedback/feedback.sql.js';
import { ITEM_PEOPLE, VOTERS_PAGE_SIZE } from '../../domain/items/item-people.sql.js';
import { similarItems } from '../../domain/feedback/similar.js';
import type { TeamAssetPaths } from './team-assets.js';
import { itemId, itemNotFound } from '../kit/items.js';
import type { SafeHtml } from '../kit/html.js';
import type { I18n } from '../kit/i18n.js';
import { chosenI18n } from '../kit/locale-choice.js';
import { problemsIn, teamProblem } from './team-problems.js';
import { readList } from '../kit/lists.js';
import { label, type Problem } from '../kit/views/parts.js';
import { sessionActor } from './inbox.js';
import { teamPaths } from './layout.js';
import { formField, formInput, seeOther, type FormData, type FormValues } from '../kit/forms.js';
import type { FormRefusal } from '../kit/pages.js';
import type { TeamRequest } from './requests.js';
import type { TeamProject, TeamSession } from './session.js';
import { teamItemPage, type ItemFormValues } from './views/item-page.js';
import type { ItemPeople, Voter } from './views/people-parts.js';
import { deletePage, type MergeCandidates } from './views/remove-parts.js';

/** What the item page's address says after a change, once: `?done=status`, `?done=reply`, in the page's language. */
const NOTICES: Record<string, (item: FeedbackDetail, i18n: I18n) => SafeHtml> = {
  status: (item, i18n) => i18n.t('team.item.saved', { status: label(item.status, i18n) }),
  reply: (_, { t }) => t('team.item.replied'),
  merged: (_, { t }) => t('team.item.merged'),
  noted: (_, { t }) => t('team.item.noted'),
  pinned: (_, { t }) => t('team.item.pinned'),
  unpinned: (_, { t }) => t('team.item.unpinned'),
};

/** A form field as text; a repeated field (a list) is none, as is a comment that is only spaces, where it may be left out. */
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const givenText = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
/** A comment's text checked as the API checks it: the contract's messages, at the control. */
const CommentSchema = AddCommentRequestSchema.shape.content;

/** The item's status form: a status, and a comment as the team posted with it if one is written. */
export const statusForm = formInput(z.object({ status: FeedbackStatusSchema, comment: z.preprocess(givenText, CommentSchema.optional()) }), {
  fields: ['status', 'comment'],
  say: { status: teamProblem('team.problem.status') },
});

/**
 * The reply form: a comment as the team, which the form needs; a thread's Reply names the comment
 * it answers (`parentId`, checked as the API checks it), and the box `internal` makes it a private
 * note of the team.
 */
export const replyForm = formInput(
  z.object({
    reply: z.preprocess(text, CommentSchema),
    parentId: z.preprocess(givenText, AddCommentRequestSchema.shape.parentId),
    internal: z.preprocess((value) => value === 'on', z.boolean()),
  }),
  { fields: ['reply', 'parentId', 'internal'], controls: { parentId: 'reply', internal: 'internal' } },
);

/** Pin or unpin a team comment as the board's official answer. */
export const pinForm = formInput(z.object({ pinned: z.enum(['true', 'false']).transform((value) => value === 'true') }), { fields: ['pinned'] });

/** The merge form: the item to merge into, chosen among the candidates (an id, as the API's merge takes it). */
export const mergeForm = formInput(z.object({ intoId: z.preprocess((value) => value ?? '', MergeFeedbackRequestSchema.shape.intoId) }), {
  fields: ['intoId'],
  say: { intoId: teamProblem('team.problem.mergeInto') },
});

/** Items offered as merge targets: those like the title, or those a search finds. */
const MERGE_CHOICES = 8;

/** How the team signs its comments on the board: the member's name, or the project's, marked as the team's. */
function teamAuthor(session: TeamSession) {
  return { kind: 'team' as const, name: session.name ?? session.project.name };
}

/**
 * The item in the team's view: the detail a secret key reads (DETAIL_WITH_HISTORY), a status
 * change with an optional comment in one transaction (updateItem and addComment, the services of
 * PATCH and POST .../comments), and a reply as the team (addComment).
 */
export function teamItems(sql: SqlPool, orm: () => Promise<MikroORM>, assets: TeamAssetPaths) {
  // The two services in one transaction: inside it each joins it (db/conflicts.ts, transaction),
  // and the whole is retried on a lost race, as a request's transaction is.
  const inTransaction = requestTransactions(orm);

  const threads = new CommentThreads();
  const detail = async (project: TeamProject, id: string): Promise<FeedbackDetail> => {
    const body = await threads.read(sql, DETAIL_WITH_HISTORY, id, project.id, null);
    if (body === undefined) throw itemNotFound();
    return JSON.parse(body) as FeedbackDetail;
  };
  /**
   * What the item may be merged into: with `search`, the API's list for it (by votes); without,
   * the API's similar items for its title. Never the item itself.
   */
  const mergeCandidates = async (project: TeamProject, item: FeedbackDetail, search: string | undefined): Promise<MergeCandidates> => {
    let items: FeedbackListItem[];
    if (search) {
      ({ items } = await readList(sql, project.id, { search, sortBy: 'votes', page: 1, limit: MERGE_CHOICES + 1, status: undefined, type: undefined }));
    } else {
      items = JSON.parse(await similarItems(sql, project.id, item.title, { limit: MERGE_CHOICES + 1 })) as FeedbackListItem[];
    }
    return { search, items: items.filter((c) => c.id !== item.id).slice(0, MERGE_CHOICES) };
  };
  /** The submitter and one page of the voters (domain/items/item-people.sql.ts); a page past the last shows none. */
  const people = async (project: TeamProject, id: string, page: number): Promise<ItemPeople> => {
    const [row] = await sql.query<{ submitter: string | null; identified: number; anonymous: number; subscribers: number; voters: string }>(ITEM_PEOPLE.name, ITEM_PEOPLE.text, [
      id,
      project.id,
      VOTERS_PAGE_SIZE,
      (page - 1) * VOTERS_PAGE_SIZE,
    ]);
    if (!row) throw itemNotFound();
    const submitter = row.submitter === null ? null : (JSON.parse(row.submitter) as ItemPeople['submitter']);
    return { submitter, identified: row.identified, anonymous: row.anonymous, subscribers: row.subscribers, voters: JSON.parse(row.voters) as Voter[], page, pageSize: VOTERS_PAGE_SIZE };
  };
  const render = async ({ ctx, session }: TeamRequest, id: string, values: ItemFormValues = {}, given: Problem[] = [], mergeGiven?: string): Promise<SafeHtml> => {
    // The member's language, else the board's default (`feedback board brand --locale`).
    const i18n = chosenI18n(ctx, session.project.locale);
    const problems = problemsIn(i18n, given);
    const mergeProblem = mergeGiven === undefined ? undefined : problemsIn(i18n, [{ message: mergeGiven }])[0]!.message;
    const item = await detail(session.project, id);
    const who = await people(session.project, id, ctx.method === 'GET' ? votersPage(ctx.query.voters) : 1);
    if (problems.length > 0 || mergeProblem) ctx.status = 400;
    const done = typeof ctx.query.done === 'string' && problems.length === 0 ? NOTICES[ctx.query.done]?.(item, i18n) : undefined;
    const search = searchText(ctx.method === 'GET' ? ctx.query.merge : formField(ctx, 'merge'));
    const merge = await mergeCandidates(session.project, item, search);
    return teamItemPage({ project: session.project, assets, item, values, problems, notice: done, merge, mergeProblem, people: who, subscribers: who.subscribers, i18n });
  };
  return {
    /** GET /team/items/:id */
    page: (request: TeamRequest): Promise<SafeHtml> => render(request, itemId(request.ctx)),

    /**
     * POST /team/items/:id/status, checked (statusForm): the status, and the comment if any, in
     * one transaction: both are made, or neither. The same status again records nothing in the
     * history (updateItem).
     */
    async changeStatus({ ctx, session }: TeamRequest, { status, comment }: FormData<typeof statusForm>): Promise<undefined> {
      const id = itemId(ctx);
      const found = await inTransaction(async ({ em }) => {
        if (!(await updateItem(em, session.project.id, id, { status }, { keyId: session.keyId, actor: sessionActor(session) }))) return false;
        if (comment !== undefined) await addComment(em, session.project.id, id, comment, teamAuthor(session));
        return true;
      });
      if (!found) throw itemNotFound();
      seeOther(ctx, `${teamPaths.item(id)}?done=status`);
      return undefined;
    },

    /** A refused status change: the item page again (400), the form as it was typed. */
    statusRefused: (request: TeamRequest, { values, problems }: FormRefusal): Promise<SafeHtml> => render(request, itemId(request.ctx), values, problems),

    /**
     * POST /team/items/:id/merge, checked (mergeForm): `intoId`, chosen on the page. The API's
     * merge (mergeItems): the votes and comments move, the duplicate is deleted; then the
     * target's page.
     */
    async merge(request: TeamRequest, { intoId }: FormData<typeof mergeForm>): Promise<SafeHtml | undefined> {
      const { ctx, session } = request;
      const id = itemId(ctx);
      if (intoId === id) return render(request, id, {}, [], teamProblem('team.problem.mergeOther'));
      const merged = await mergeItems((await orm()).em.fork(), session.project.id, id, intoId);
      if (!merged) throw itemNotFound();
      seeOther(ctx, `${teamPaths.item(intoId)}?done=merged`);
      return undefined;
    },

    /** A refused merge: the item page again (400), the problem at the choice. */
    mergeRefused: (request: TeamRequest, { problems }: FormRefusal): Promise<SafeHtml> => render(request, itemId(request.ctx), {}, [], problems[0]?.message),

    /** GET /team/items/:id/delete: the confirmation, with what goes with the item. */
    async confirmDelete({ ctx, session }: TeamRequest): Promise<SafeHtml> {
      return deletePage(session.project, assets, await detail(session.project, itemId(ctx)), chosenI18n(ctx, session.project.locale));
    },

    /** POST /team/items/:id/delete: the API's delete (deleteItem), then the inbox, which says so. */
    async delete({ ctx, session }: TeamRequest): Promise<undefined> {
      if (!(await deleteItem((await orm()).em.fork(), session.project.id, itemId(ctx)))) throw itemNotFound();
      seeOther(ctx, `${teamPaths.inbox}?deleted=1`);
      return undefined;
    },

    /**
     * POST /team/items/:id/comments, checked (replyForm): the reply, posted as the team (the API's
     * service, addComment), to the item or to a comment, as an internal note when asked; then the
     * item at the new comment. A parent that is not a comment of the item is refused as the API does.
     */
    async reply(request: TeamRequest, { reply, parentId, internal }: FormData<typeof replyForm>, values: FormValues): Promise<SafeHtml | undefined> {
      const { ctx, session } = request;
      const id = itemId(ctx);
      let added;
      try {
        added = await addComment((await orm()).em.fork(), session.project.id, id, reply, teamAuthor(session), { parentId, internal });
      } catch (error) {
        if (error instanceof InvalidInput) return render(request, id, { reply: values.reply, internal: values.internal }, [{ field: 'reply', message: teamProblem('team.problem.replyGone') }]);
        throw error;
      }
      if (!added) throw itemNotFound();
      seeOther(ctx, `${teamPaths.item(id)}?done=${internal ? 'noted' : 'reply'}`);
      return undefined;
    },

    /** A refused reply: the item page again (400), the reply as it was typed, in the form it was typed in. */
    replyRefused: (request: TeamRequest, { values, problems }: FormRefusal): Promise<SafeHtml> =>
      render(request, itemId(request.ctx), { reply: values.reply ?? '', parentId: values.parentId || undefined, internal: values.internal }, problems),

    /** POST /team/items/:id/comments/:commentId/pin, checked (pinForm): the API's service (updateComment) pins or unpins a team comment. */
    async pin({ ctx, session }: TeamRequest, { pinned }: FormData<typeof pinForm>): Promise<undefined> {
      const id = itemId(ctx);
      const commentId = String(ctx.params.commentId);
      if (!UUID.test(commentId)) throw new AppError(404, ERROR_MESSAGES.commentNotFound);
      const result = await updateComment((await orm()).em.fork(), session.project.id, id, commentId, { pinned }, { secret: true });
      if (result === 'no-item') throw itemNotFound();
      if (typeof result === 'string') throw missing(result);
      seeOther(ctx, `${teamPaths.item(id)}?done=${pinned ? 'pinned' : 'unpinned'}#comment-${commentId}`);
      return undefined;
    },

    /** A refused pin (a forged form): the item page again (400). */
    pinRefused: (request: TeamRequest, { problems }: FormRefusal): Promise<SafeHtml> => render(request, itemId(request.ctx), {}, problems),
  };
}

/** The voters' page asked for (`?voters=2`): a whole number from 1, else the first; a page past the last lists nobody. */
function votersPage(value: unknown): number {
  return typeof value === 'string' && /^[1-9][0-9]{0,6}$/.test(value) ? Number(value) : 1;
}

/** The merge search as typed: one text value within the list's limit, or none. */
function searchText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const search = value.trim();
  return search === '' || search.length > 200 ? undefined : search;
}
