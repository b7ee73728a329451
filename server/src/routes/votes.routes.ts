import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { AppState } from '../http/context.js';
import { feedbackNotFound } from '../domain/errors.js';
import { mount, reply, type MountOptions } from '../http/mount.js';
import { anonymousVoterKey } from '../http/edge.js';
import { toggleAnonymousVote, toggleIdentifiedVote, type VoteBatches } from '../domain/votes/votes.js';
import { CHECK_ANONYMOUS, CHECK_IDENTIFIED } from '../domain/votes/votes.sql.js';

/**
 * Spec 4.5 and 4.6: toggle a vote, and read whether the caller votes. The toggle is votes.ts's; statements in
 * votes.sql.ts. `batches` is the process's one group commit of toggles (domain/hot-writes.ts), which the
 * board's vote form shares.
 */
export function mountVoteRoutes(router: Router<AppState>, options: MountOptions, batches: VoteBatches): void {
  // The handler returns the toggle's own promise: no await of its own on the hot path.
  mount(router, routes.toggleVote, options, ({ params: { id }, body }, ctx, sql) =>
    (body.endUser
      ? toggleIdentifiedVote(batches, sql, { project: ctx.state.caller.projectId, item: id }, body.endUser, !ctx.state.tx)
      : toggleAnonymousVote(batches, sql, { project: ctx.state.caller.projectId, item: id, voterKey: anonymousVoterKey(ctx) }, !ctx.state.tx)
    ).then((vote) => reply(200, vote)),
  );

  mount(router, routes.getVote, options, async ({ params: { id }, query }, ctx, sql) => {
    const project = ctx.state.caller.projectId;
    const [row] =
      query.endUserId !== undefined
        ? await sql.query<{ vote_count: number; voted: boolean }>(CHECK_IDENTIFIED.name, CHECK_IDENTIFIED.text, [id, project, query.endUserId])
        : await sql.query<{ vote_count: number; voted: boolean }>(CHECK_ANONYMOUS.name, CHECK_ANONYMOUS.text, [id, project, anonymousVoterKey(ctx)]);
    if (!row) throw feedbackNotFound();
    return reply(200, { voted: row.voted, voteCount: row.vote_count });
  });
}
