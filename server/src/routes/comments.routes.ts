import type Router from '@koa/router';
import { END_USER_TOKEN_HEADER, ERROR_MESSAGES, routes } from '@feedbackd/sdk/contract';
import type { AppContext, AppState } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { feedbackNotFound } from '../domain/errors.js';
import { jsonReply, mount, reply, type MountOptions } from '../http/mount.js';
import type { Statements } from '../db/pool.js';
import { requestEm, type OperatorOrm } from '../http/operator-orm.js';
import { checkEndUserContent, createComment, publicComment } from '../domain/comments/comments.js';
import { listComments } from '../domain/comments/comments.sql.js';
import { holdComment } from '../domain/moderation/held-posts.js';
import { holdReason } from '../domain/moderation/hold-reason.js';
import { anonymousVoterKey } from '../http/edge.js';
import { addComment, commentHistory, deleteComment, missing, updateComment } from '../domain/comments/comments.service.js';

/**
 * Checks the signed token of an end user of project `projectId` (the one the board's sign-in
 * links and the widget take) and spends it, on `sql` (the request's transaction when it has one):
 * the externalId it proves, or a 403 that says why (docs/api.md, "Comments").
 */
export type EndUserTokenCheck = (sql: Statements, projectId: string, token: string) => Promise<string>;

/**
 * The conversation's routes (docs/api.md, "Comments"). They serve both kinds of key: a public
 * key's comment is the hot statement alone (domain/comments/comments.ts, one round trip); edits, pins, deletes
 * and the history are transactions of domain/comments/comments.service.ts, on the ORM (`orm`).
 */
export function mountCommentRoutes(router: Router<AppState>, options: MountOptions, orm: OperatorOrm, endUserToken: EndUserTokenCheck): void {
  const em = requestEm(orm);
  const isSecret = (ctx: AppContext) => ctx.state.caller.kind === 'secret';
  const projectOf = (ctx: AppContext) => ctx.state.caller.projectId;

  /**
   * Who changes an end user's comment: with a secret key, the end user `endUserId` names (the
   * team's backend speaks for them); with a public key, only the one their signed token proves
   * (END_USER_TOKEN_HEADER), checked before anything is looked up. Every comment publishes its
   * author's externalId, so `endUserId` alone proves nothing; given with a token, it must be the
   * token's. Undefined: no end user (a secret key's own change).
   */
  const changer = async (ctx: AppContext, sql: Statements, endUserId: string | undefined): Promise<string | undefined> => {
    if (isSecret(ctx)) return endUserId;
    const token = ctx.get(END_USER_TOKEN_HEADER);
    if (token === '') throw new AppError(403, endUserId === undefined ? ERROR_MESSAGES.secretKeyRequired : ERROR_MESSAGES.endUserTokenRequired);
    const proved = await endUserToken(sql, projectOf(ctx), token);
    if (endUserId !== undefined && endUserId !== proved) throw new AppError(403, ERROR_MESSAGES.endUserTokenMismatch);
    return proved;
  };

  mount(router, routes.listComments, options, async ({ params: { id } }, ctx, sql) => {
    const statement = listComments(isSecret(ctx));
    const [row] = await sql.query<{ comments: string }>(statement.name, statement.text, [id, projectOf(ctx)]);
    if (!row) throw feedbackNotFound();
    return jsonReply(routes.listComments, 200, `{"comments":${row.comments}}`);
  });

  mount(router, routes.addComment, options, async ({ params: { id }, body }, ctx, sql) => {
    const item = { project: projectOf(ctx), item: id, content: body.content, parentId: body.parentId };
    if (!isSecret(ctx)) {
      // A public key speaks for end users only: never the team, a note or a pin.
      if (body.team || body.internal || body.pin) throw new AppError(403, ERROR_MESSAGES.teamCommentRequiresSecretKey);
      checkEndUserContent(body.content);
      const author = body.endUser ? { kind: 'user' as const, endUser: body.endUser } : { kind: 'anonymous' as const };
      const voterKey = body.endUser ? undefined : anonymousVoterKey(ctx);
      // Where the project holds such a comment it waits for the team (docs/moderation.md): 202.
      // A project that holds nothing has no policy: nothing to ask.
      const policy = ctx.state.caller.moderation;
      const reason = policy && holdReason(policy, Boolean(body.endUser), [body.content]);
      if (reason) return reply(202, await holdComment(sql, { ...item, author, secret: false, voterKey }, reason));
      const added = await createComment(sql, { ...item, author, secret: false, voterKey });
      return reply(201, { comment: publicComment(added.comment), commentCount: added.commentCount });
    }
    if (!body.team && !body.endUser) throw AppError.invalidInput({ formErrors: [], fieldErrors: { team: ['A comment needs an author: team or endUser'] } });
    const author = body.team ? { kind: 'team' as const, name: body.team.name } : { kind: 'user' as const, endUser: body.endUser! };
    if (!body.pin) return reply(201, await createComment(sql, { ...item, author, internal: body.internal, secret: true }));
    const added = await addComment(await em(ctx), item.project, id, body.content, author, { parentId: body.parentId, internal: body.internal, pin: true });
    if (!added) throw feedbackNotFound();
    return reply(201, added);
  });

  mount(router, routes.updateComment, options, async ({ params: { id, commentId }, body }, ctx, sql) => {
    if (!isSecret(ctx)) {
      if (body.content !== undefined) checkEndUserContent(body.content);
      if (body.pinned !== undefined) throw new AppError(403, ERROR_MESSAGES.teamCommentRequiresSecretKey);
    }
    const endUserId = await changer(ctx, sql, body.endUserId);
    // An end user's edit passes moderation as their new comment would (docs/moderation.md, "Edits"): 202 when held.
    const actor = { secret: isSecret(ctx), endUserId, moderation: ctx.state.caller.moderation };
    const result = await updateComment(await em(ctx), projectOf(ctx), id, commentId, body, actor);
    if (typeof result === 'string') throw missing(result);
    return result.held ? reply(202, { comment: result.comment, held: result.held }) : reply(200, { comment: result.comment });
  });

  mount(router, routes.deleteComment, options, async ({ params: { id, commentId }, query }, ctx, sql) => {
    const endUserId = await changer(ctx, sql, query.endUserId);
    const result = await deleteComment(await em(ctx), projectOf(ctx), id, commentId, { secret: isSecret(ctx), endUserId });
    if (typeof result === 'string') throw missing(result);
    return reply(200, { id: commentId, deleted: true as const, repliesDeleted: result.repliesDeleted, commentCount: result.commentCount });
  });

  mount(router, routes.commentHistory, options, async ({ params: { id, commentId } }, ctx) => {
    const result = await commentHistory(await em(ctx), projectOf(ctx), id, commentId);
    if (typeof result === 'string') throw missing(result);
    return reply(200, result);
  });
}
