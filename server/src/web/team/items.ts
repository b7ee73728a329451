import type { MikroORM } from '@mikro-orm/postgresql';
import { AddCommentRequestSchema, FeedbackStatusSchema, type FeedbackDetail } from '@feedbackd/sdk/contract';
import { addComment } from '../../admin/comments.service.js';
import { updateItem } from '../../admin/items.service.js';
import type { SqlPool } from '../../db/pool.js';
import { requestTransactions } from '../../db/request-transaction.js';
import { toValidationDetails } from '../../http/errors.js';
import { DETAIL_WITH_HISTORY } from '../../public/feedback.sql.js';
import type { AssetPaths } from '../assets.js';
import { itemId, itemNotFound } from '../board-pages.js';
import type { SafeHtml } from '../html.js';
import { label, type Problem } from '../views/parts.js';
import { sessionActor } from './inbox.js';
import { teamPaths } from './layout.js';
import { formField, seeOther, type TeamRequest } from './requests.js';
import type { TeamProject } from './session.js';
import { teamItemPage, type ItemFormValues } from './views/item-page.js';

/** What the item page's address says after a change, once: `?done=status`, `?done=reply`. */
const NOTICES: Record<string, (item: FeedbackDetail) => string> = {
  status: (item) => `Saved: the status is ${label(item.status)}.`,
  reply: () => 'Your reply is posted.',
};

/** How the team signs its comments on the board: under the project's name, marked as the team's. */
function teamAuthor(project: TeamProject) {
  return { kind: 'team' as const, name: project.name };
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
  const render = async ({ ctx, session }: TeamRequest, id: string, values: ItemFormValues = {}, problems: Problem[] = []): Promise<SafeHtml> => {
    const item = await detail(session.project, id);
    if (problems.length > 0) ctx.status = 400;
    const done = typeof ctx.query.done === 'string' && problems.length === 0 ? NOTICES[ctx.query.done]?.(item) : undefined;
    return teamItemPage({ project: session.project, assets, item, values, problems, notice: done });
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
        if (!(await updateItem(em, session.project.id, id, { status: status.data }, { keyId: session.keyId, actor: sessionActor(session.id) }))) return false;
        if (note.content !== undefined) await addComment(em, session.project.id, id, note.content, teamAuthor(session.project));
        return true;
      });
      if (!found) throw itemNotFound();
      seeOther(ctx, `${teamPaths.item(id)}?done=status`);
      return undefined;
    },

    /** POST /team/items/:id/comments: `reply`, posted as the team. */
    async reply(request: TeamRequest): Promise<SafeHtml | undefined> {
      const { ctx, session } = request;
      const id = itemId(ctx);
      const given = text(formField(ctx, 'reply'));
      const checked = comment(given, 'reply', true);
      if (checked.problems.length > 0) return render(request, id, { reply: given }, checked.problems);
      const added = await addComment((await orm()).em.fork(), session.project.id, id, checked.content!, teamAuthor(session.project));
      if (!added) throw itemNotFound();
      seeOther(ctx, `${teamPaths.item(id)}?done=reply`);
      return undefined;
    },
  };
}

/** A form field as text, to check and to show again; a repeated field is not text. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
