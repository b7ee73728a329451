import type Router from '@koa/router';
import { routes } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../db/pool.js';
import { clientIp, type AppContext, type AppState } from '../http/context.js';
import { feedbackId, feedbackNotFound, isItemGone } from '../http/item-ids.js';
import { jsonReply, mount, reply, type MountOptions } from '../http/mount.js';
import { givenProfile, NO_PROFILE } from './end-user.sql.js';
import { DETAIL, DETAIL_WITH_HISTORY, listStatement, listValues, type Statement } from './feedback.sql.js';
import { submitAlone, submitBatches, type Submission } from './submit-batches.js';
import { IDENTIFY } from './users.sql.js';
import { voteBatches, type BatchedToggle, type Toggled } from './vote-batches.js';
import { anonymousVoterKey } from './voter.js';
import { CHECK_ANONYMOUS, CHECK_IDENTIFIED, TOGGLE_ANONYMOUS, TOGGLE_IDENTIFIED, TOGGLE_KNOWN_USER } from './votes.sql.js';

/**
 * Toggle statements running at once per process; the toggles that arrive meanwhile leave together
 * (vote-batches.ts). 2 and 4 were even in the vote scenario (4 interleaved rounds each); 2 makes
 * fewer, larger batches and leaves the other hot connections to the reads.
 */
const TOGGLES_IN_FLIGHT = 2;

/** Submission statements running at once per process (submit-batches.ts). */
const SUBMITS_IN_FLIGHT = 2;

/**
 * The six endpoints of the spec, each one or two statements on the pool: no ORM, no entity,
 * no transaction object. The statements live in *.sql.ts beside this file.
 */
export function mountPublicRoutes(router: Router<AppState>, sql: SqlPool, options: MountOptions): void {
  // In the transaction of a write sent with an Idempotency-Key (http/idempotent-writes.ts), or else on the pool.
  const on = (ctx: AppContext) => ctx.state.tx?.sql ?? sql;
  const run = <Row extends Record<string, unknown>>(ctx: AppContext, statement: Statement, values: unknown[]) => on(ctx).query<Row>(statement.name, statement.text, values);
  const batches = voteBatches(sql, TOGGLES_IN_FLIGHT);
  const submissions = submitBatches(sql, SUBMITS_IN_FLIGHT);

  mount(router, routes.identify, options, async ({ body }, ctx) => {
    const [row] = await run<{ body: string }>(ctx, IDENTIFY, [projectOf(ctx), body.externalId, givenProfile(body)]);
    return jsonReply(routes.identify, 200, `{"user":${row!.body}}`);
  });

  mount(router, routes.createFeedback, options, async ({ body }, ctx) => {
    const item = { project: projectOf(ctx), title: body.title, description: body.description ?? null, type: body.type, metadata: body.metadata == null ? null : JSON.stringify(body.metadata) };
    const submission: Submission = body.endUser
      ? { ...item, externalId: body.endUser.externalId, profile: givenProfile(body.endUser) }
      : { ...item, voterKey: anonymousVoterKey(ctx.state.caller.voterSalt, clientIp(ctx)) };
    // A batch is its own transaction: a submission in a request's transaction runs alone, in it.
    const answer = ctx.state.tx ? 'alone' : await submissions.submit(submission);
    const created = answer === 'alone' ? await submitAlone(on(ctx), submission) : answer;
    return jsonReply(routes.createFeedback, 201, `{"feedback":${created}}`);
  });

  mount(router, routes.listFeedback, options, async ({ query }, ctx) => {
    const statement = listStatement(query);
    const [row] = await run<{ total: number; items: string }>(ctx, statement, listValues(statement, projectOf(ctx), query));
    const total = row!.total;
    return jsonReply(
      routes.listFeedback,
      200,
      `{"items":${row!.items},"total":${total},"page":${query.page},"limit":${query.limit},"totalPages":${Math.ceil(total / query.limit)}}`,
    );
  });

  mount(router, routes.getFeedback, options, async ({ params, query }, ctx) => {
    // A secret key also sees the status history (an extension); a public key's answer is the spec's, unchanged.
    const statement = ctx.state.caller.kind === 'secret' ? DETAIL_WITH_HISTORY : DETAIL;
    const [row] = await run<{ body: string }>(ctx, statement, [feedbackId(params.id), projectOf(ctx), query.endUserId ?? null]);
    if (!row) throw feedbackNotFound();
    return jsonReply(routes.getFeedback, 200, `{"feedback":${row.body}}`);
  });

  mount(router, routes.toggleVote, options, async ({ params, body }, ctx) => {
    const id = feedbackId(params.id);
    const project = projectOf(ctx);
    const endUser = body.endUser;
    // A batch is its own transaction: a toggle in a request's transaction runs alone, in it.
    const inBatch = !ctx.state.tx;
    let row: Toggled | undefined;
    try {
      if (!endUser) {
        const voterKey = anonymousVoterKey(ctx.state.caller.voterSalt, clientIp(ctx));
        row = (inBatch ? batched(await batches.toggle({ project, item: id, voterKey })) : undefined) ?? (await run<Toggled>(ctx, TOGGLE_ANONYMOUS, [id, project, voterKey]))[0];
      } else {
        const profile = givenProfile(endUser);
        // Only an externalId: a returning voter is read, not upserted (no write to end_users).
        if (profile === NO_PROFILE) {
          const answer = inBatch ? await batches.toggle({ project, item: id, externalId: endUser.externalId }) : 'alone';
          if (answer === 'alone') [row] = await run<Toggled>(ctx, TOGGLE_KNOWN_USER, [id, project, endUser.externalId]);
          else if (answer !== 'unknown-user') row = answer;
        }
        if (!row) [row] = await run<Toggled>(ctx, TOGGLE_IDENTIFIED, [id, project, endUser.externalId, profile]);
      }
    } catch (error) {
      // The item was deleted or merged away while the toggle ran: the statement rolled back whole.
      if (isItemGone(error)) throw feedbackNotFound();
      throw error;
    }
    if (!row?.item_found) throw feedbackNotFound();
    return reply(200, { voted: row.now_voted, voteCount: row.new_count });
  });

  mount(router, routes.getVote, options, async ({ params, query }, ctx) => {
    const id = feedbackId(params.id);
    const [row] =
      query.endUserId !== undefined
        ? await run<{ vote_count: number; voted: boolean }>(ctx, CHECK_IDENTIFIED, [id, projectOf(ctx), query.endUserId])
        : await run<{ vote_count: number; voted: boolean }>(ctx, CHECK_ANONYMOUS, [id, projectOf(ctx), anonymousVoterKey(ctx.state.caller.voterSalt, clientIp(ctx))]);
    if (!row) throw feedbackNotFound();
    return reply(200, { voted: row.voted, voteCount: row.vote_count });
  });
}

/** The toggle a batch answered, or undefined when the toggle must run by itself. */
function batched(answer: BatchedToggle): Toggled | undefined {
  return typeof answer === 'string' ? undefined : answer;
}

function projectOf(ctx: AppContext): string {
  return ctx.state.caller.projectId;
}
