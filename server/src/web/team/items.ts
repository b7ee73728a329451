import type { MikroORM } from '@mikro-orm/postgresql';
import { AddCommentRequestSchema, FeedbackStatusSchema, MergeFeedbackRequestSchema, type FeedbackDetail, type FeedbackListItem } from '@feedbackd/sdk/contract';
import { addComment } from '../../admin/comments.service.js';
import { deleteItem, updateItem } from '../../admin/items.service.js';
import { mergeItems } from '../../admin/merge.service.js';
import type { SqlPool } from '../../db/pool.js';
import { requestTransactions } from '../../db/request-transaction.js';
import { toValidationDetails } from '../../http/errors.js';
import { DETAIL_WITH_HISTORY } from '../../api/feedback.sql.js';
import { similarItems } from '../../api/similar.js';
import type { AssetPaths } from '../kit/assets.js';
import { itemId, itemNotFound } from '../kit/items.js';
import type { SafeHtml } from '../kit/html.js';
import { readList } from '../kit/lists.js';
import { label, type Problem } from '../kit/views/parts.js';
import { sessionActor } from './inbox.js';
import { teamPaths } from './layout.js';
import { formField, seeOther } from '../kit/forms.js';
import type { TeamRequest } from './requests.js';
import type { TeamProject, TeamSession } from './session.js';
import { teamItemPage, type ItemFormValues } from './views/item-page.js';
import { deletePage, type MergeCandidates } from './views/remove-parts.js';

/** What the item page's address says after a change, once: `?done=status`, `?done=reply`. */
const NOTICES: Record<string, (item: FeedbackDetail) => string> = {
  status: (item) => `Saved: the status is ${label(item.status)}.`,
  reply: () => 'Your reply is posted.',
  merged: () => 'Merged: the duplicate\'s votes and comments are now on this item, and the duplicate is deleted.',
};

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
export function teamItems(sql: SqlPool, orm: () => Promise<MikroORM>, assets: AssetPaths) {
  // The two services in one transaction: inside it each joins it (db/conflicts.ts, transaction),
  // and the whole is retried on a lost race, as a request's transaction is.
  const inTransaction = requestTransactions(orm);

  const detail = async (project: TeamProject, id: string): Promise<FeedbackDetail> => {
    const [row] = await sql.query<{ body: string }>(DETAIL_WITH_HISTORY.name, DETAIL_WITH_HISTORY.text, [id, project.id, null]);
    if (!row) throw itemNotFound();
    return JSON.parse(row.body) as FeedbackDetail;
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
      items = JSON.parse((await similarItems(sql, project.id, item.title, { limit: MERGE_CHOICES + 1 })).text) as FeedbackListItem[];
    }
    return { search, items: items.filter((c) => c.id !== item.id).slice(0, MERGE_CHOICES) };
  };
  const render = async ({ ctx, session }: TeamRequest, id: string, values: ItemFormValues = {}, problems: Problem[] = [], mergeProblem?: string): Promise<SafeHtml> => {
    const item = await detail(session.project, id);
    if (problems.length > 0 || mergeProblem) ctx.status = 400;
    const done = typeof ctx.query.done === 'string' && problems.length === 0 ? NOTICES[ctx.query.done]?.(item) : undefined;
    const search = searchText(ctx.method === 'GET' ? ctx.query.merge : formField(ctx, 'merge'));
    const merge = await mergeCandidates(session.project, item, search);
    return teamItemPage({ project: session.project, assets, item, values, problems, notice: done, merge, mergeProblem });
  };
  /** A comment's text checked as the API checks it (the contract's messages), tied to the control `field`. */
  const comment = (value: unknown, field: string, required: boolean): { content?: string; problems: Problem[] } => {
    if (!required && (value === undefined || (typeof value === 'string' && value.trim() === ''))) return { problems: [] };
    const parsed = AddCommentRequestSchema.safeParse({ content: value, team: { name: 'team' } });
    if (parsed.success) return { content: parsed.data.content, problems: [] };
    const details = toValidationDetails(parsed.error);
    return { problems: (details.fieldErrors.content ?? details.formErrors).map((message) => ({ field, message })) };
  };

  return {
    /** GET /team/items/:id */
    page: (request: TeamRequest): Promise<SafeHtml> => render(request, itemId(request.ctx)),

    /**
     * POST /team/items/:id/status: `status`, and `comment` (optional), in one transaction: both
     * are made, or neither. The same status again records nothing in the history (updateItem).
     */
    async changeStatus(request: TeamRequest): Promise<SafeHtml | undefined> {
      const { ctx, session } = request;
      const id = itemId(ctx);
      const given = { status: text(formField(ctx, 'status')), comment: text(formField(ctx, 'comment')) };
      const status = FeedbackStatusSchema.safeParse(given.status);
      const note = comment(given.comment, 'comment', false);
      const problems = [...(status.success ? [] : [{ field: 'status', message: 'Choose one of the statuses' }]), ...note.problems];
      if (problems.length > 0) return render(request, id, given, problems);
      const found = await inTransaction(async ({ em }) => {
        if (!(await updateItem(em, session.project.id, id, { status: status.data }, { keyId: session.keyId, actor: sessionActor(session) }))) return false;
        if (note.content !== undefined) await addComment(em, session.project.id, id, note.content, teamAuthor(session));
        return true;
      });
      if (!found) throw itemNotFound();
      seeOther(ctx, `${teamPaths.item(id)}?done=status`);
      return undefined;
    },

    /**
     * POST /team/items/:id/merge: `intoId`, chosen on the page. The API's merge (mergeItems): the
     * votes and comments move, the duplicate is deleted; then the target's page.
     */
    async merge(request: TeamRequest): Promise<SafeHtml | undefined> {
      const { ctx, session } = request;
      const id = itemId(ctx);
      const parsed = MergeFeedbackRequestSchema.safeParse({ intoId: formField(ctx, 'intoId') ?? '' });
      if (!parsed.success) return render(request, id, {}, [], 'Choose the item to merge this one into');
      if (parsed.data.intoId === id) return render(request, id, {}, [], 'Choose another item than this one');
      const merged = await mergeItems((await orm()).em.fork(), session.project.id, id, parsed.data.intoId);
      if (!merged) throw itemNotFound();
      seeOther(ctx, `${teamPaths.item(parsed.data.intoId)}?done=merged`);
      return undefined;
    },

    /** GET /team/items/:id/delete: the confirmation, with what goes with the item. */
    async confirmDelete({ ctx, session }: TeamRequest): Promise<SafeHtml> {
      return deletePage(session.project, assets, await detail(session.project, itemId(ctx)));
    },

    /** POST /team/items/:id/delete: the API's delete (deleteItem), then the inbox, which says so. */
    async delete({ ctx, session }: TeamRequest): Promise<undefined> {
      if (!(await deleteItem((await orm()).em.fork(), session.project.id, itemId(ctx)))) throw itemNotFound();
      seeOther(ctx, `${teamPaths.inbox}?deleted=1`);
      return undefined;
    },

    /** POST /team/items/:id/comments: `reply`, posted as the team. */
    async reply(request: TeamRequest): Promise<SafeHtml | undefined> {
      const { ctx, session } = request;
      const id = itemId(ctx);
      const given = text(formField(ctx, 'reply'));
      const checked = comment(given, 'reply', true);
      if (checked.problems.length > 0) return render(request, id, { reply: given }, checked.problems);
      const added = await addComment((await orm()).em.fork(), session.project.id, id, checked.content!, teamAuthor(session));
      if (!added) throw itemNotFound();
      seeOther(ctx, `${teamPaths.item(id)}?done=reply`);
      return undefined;
    },
  };
}

/** The merge search as typed: one text value within the list's limit, or none. */
function searchText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const search = value.trim();
  return search === '' || search.length > 200 ? undefined : search;
}

/** A form field as text, to check and to show again; a repeated field is not text. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
