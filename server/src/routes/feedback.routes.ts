import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { AppContext, AppState } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { feedbackNotFound } from '../domain/errors.js';
import { jsonReply, mount, reply, type MountOptions } from '../http/mount.js';
import type { Statements } from '../db/pool.js';
import { requestEm, type OperatorOrm } from '../http/operator-orm.js';
import { deleteItem, updateItem } from '../domain/items/items.service.js';
import { mergeItems } from '../domain/items/merge.service.js';
import { CommentThreads } from '../domain/feedback/comment-threads.js';
import { DETAIL, DETAIL_FOR_USER, DETAIL_WITH_HISTORY, DETAIL_WITH_HISTORY_FOR_USER } from '../domain/feedback/feedback.sql.js';
import { listStatement, listValues } from '../domain/feedback/lists.js';
import { submitOrHold, type SubmitBatches, type Submission } from '../domain/feedback/submissions.js';
import { anonymousVoterKey } from '../http/edge.js';

/**
 * Spec 4.2 to 4.4: submit, list and read feedback. A submission is submissions.ts's, a list's
 * statement lists.ts's, and a detail is read through comment-threads.ts. `submissions` is the
 * process's one group commit of submissions (domain/hot-writes.ts), which the board's submit form
 * shares. Then the operator's changes of an item (secret keys only: update, delete, merge), each
 * one transaction of a service on the ORM (`orm`), the item then read back as a secret key's
 * detail, by the hot statement.
 */
export function mountFeedbackRoutes(router: Router<AppState>, options: MountOptions, submissions: SubmitBatches, orm: OperatorOrm): void {
  const threads = new CommentThreads();
  // The handler returns the submission's own promise: no await of its own on the hot path.
  mount(router, routes.createFeedback, options, ({ body }, ctx, sql) => {
    const item = { project: ctx.state.caller.projectId, title: body.title, description: body.description ?? null, type: body.type, metadata: body.metadata == null ? null : JSON.stringify(body.metadata) };
    const submission: Submission = body.endUser
      ? { ...item, externalId: body.endUser.externalId, profile: JSON.stringify(body.endUser) }
      : { ...item, voterKey: anonymousVoterKey(ctx), byTeam: ctx.state.caller.kind === 'secret' };
    // A secret key's submission is the team's: never held (docs/moderation.md).
    const policy = ctx.state.caller.kind === 'secret' ? null : ctx.state.caller.moderation;
    return submitOrHold(submissions, sql, submission, policy, !ctx.state.tx).then(({ item, held }) =>
      held ? jsonReply(routes.createFeedback, 202, `{"feedback":${item},"held":{"reason":"${held}"}}`) : jsonReply(routes.createFeedback, 201, `{"feedback":${item}}`),
    );
  });

  mount(router, routes.listFeedback, options, async ({ query }, ctx, sql) => {
    const statement = listStatement(query);
    const [row] = await sql.query<{ total: number; items: string }>(statement.name, statement.text, listValues(statement, ctx.state.caller.projectId, query));
    const total = row!.total;
    return jsonReply(
      routes.listFeedback,
      200,
      `{"items":${row!.items},"total":${total},"page":${query.page},"limit":${query.limit},"totalPages":${Math.ceil(total / query.limit)}}`,
    );
  });

  mount(router, routes.getFeedback, options, async ({ params: { id }, query }, ctx, sql) => {
    // A secret key also sees the status history, and an endUserId also `userIsSubscribed` (extensions);
    // a public key's answer without an endUserId is the spec's, unchanged.
    const secret = ctx.state.caller.kind === 'secret';
    const statement = query.endUserId === undefined ? (secret ? DETAIL_WITH_HISTORY : DETAIL) : secret ? DETAIL_WITH_HISTORY_FOR_USER : DETAIL_FOR_USER;
    const body = await threads.read(sql, statement, id, ctx.state.caller.projectId, query.endUserId ?? null);
    if (body === undefined) throw feedbackNotFound();
    return jsonReply(routes.getFeedback, 200, `{"feedback":${body}}`);
  });

  const em = requestEm(orm);
  /** The item as GET /api/v1/feedback/:id shows it to a secret key, as JSON text. */
  const detail = async (id: string, ctx: AppContext, sql: Statements): Promise<string> => {
    const body = await threads.read(sql, DETAIL_WITH_HISTORY, id, ctx.state.caller.projectId, null);
    // Deleted by someone else between the change's commit and this read.
    if (body === undefined) throw feedbackNotFound();
    return body;
  };

  mount(router, routes.updateFeedback, options, async ({ params: { id }, body }, ctx, sql) => {
    const { actor, ...changes } = body;
    const found = await updateItem(await em(ctx), ctx.state.caller.projectId, id, changes, { keyId: ctx.state.caller.keyId, actor: actor ?? null });
    if (!found) throw feedbackNotFound();
    return jsonReply(routes.updateFeedback, 200, `{"feedback":${await detail(id, ctx, sql)}}`);
  });

  mount(router, routes.deleteFeedback, options, async ({ params: { id } }, ctx) => {
    if (!(await deleteItem(await em(ctx), ctx.state.caller.projectId, id))) throw feedbackNotFound();
    return reply(200, { id, deleted: true as const });
  });

  mount(router, routes.mergeFeedback, options, async ({ params: { id }, body }, ctx, sql) => {
    if (body.intoId === id) throw AppError.invalidInput({ formErrors: [], fieldErrors: { intoId: ['intoId must be another item than the one merged'] } });
    const merged = await mergeItems(await em(ctx), ctx.state.caller.projectId, id, body.intoId);
    if (!merged) throw feedbackNotFound();
    const summary = JSON.stringify({ id, ...merged });
    return jsonReply(routes.mergeFeedback, 200, `{"feedback":${await detail(body.intoId, ctx, sql)},"merged":${summary}}`);
  });
}
