import type { MikroORM } from '@mikro-orm/postgresql';
import { MODERATION_BATCH_MAX } from '@feedbackd/sdk/contract';
import { z } from 'zod';
import { approveHeld, blockList, heldQueue, liftBlock, rejectHeld } from '../../domain/moderation/moderation.service.js';
import { HELD_COUNT } from '../../domain/moderation/moderation.sql.js';
import type { SqlPool } from '../../db/pool.js';
import { blockNotFound } from '../../domain/errors.js';
import { UUID } from '../../db/uuid.js';
import type { SafeHtml } from '../kit/html.js';
import { formInput, seeOther, type FormData } from '../kit/forms.js';
import type { FormRefusal } from '../kit/pages.js';
import { chosenI18n } from '../kit/locale-choice.js';
import type { Problem } from '../kit/views/parts.js';
import { teamPaths } from './layout.js';
import type { TeamRequest } from './requests.js';
import type { TeamAssetPaths } from './team-assets.js';
import { problemsIn, teamProblem } from './team-problems.js';
import { BLOCK_DAY_CHOICES, heldPage } from './views/held-page.js';

const SELECT_POSTS = teamProblem('team.held.selectRequired');

/**
 * The Held view's form: the chosen posts (a checkbox each; "Select all on this page" adds every
 * post the page listed, as the inbox's bulk form does), the decision (the button it was sent
 * with), whether a rejection blocks the authors, and for how long (one of BLOCK_DAY_CHOICES, or
 * empty for the default).
 */
export const heldDecisionForm = formInput(
  z.preprocess(
    (raw) => {
      const form = raw as Record<string, unknown>;
      return form.all === 'page' ? { ...form, id: [...listOf(form.id), ...listOf(form.shown)] } : form;
    },
    z.object({
      id: z.preprocess(idsOf, z.array(z.string(), { error: SELECT_POSTS }).min(1, { error: SELECT_POSTS }).max(MODERATION_BATCH_MAX, { error: SELECT_POSTS })),
      decision: z.enum(['approve', 'reject']),
      block: z.unknown().transform((value) => value === 'on'),
      blockDays: z.preprocess((value) => (value === '' ? undefined : value), z.enum(BLOCK_DAY_CHOICES).transform(Number).optional()),
    }),
  ),
  {
    fields: ['id', 'shown', 'all', 'decision', 'block', 'blockDays'],
    controls: { id: 'select-all', decision: 'select-all', blockDays: 'block-days' },
    say: { id: SELECT_POSTS, decision: SELECT_POSTS },
  },
);

/** How many posts the project holds: the inbox's Held tab. */
export async function heldCount(sql: SqlPool, projectId: string): Promise<number> {
  const [row] = await sql.query<{ n: number }>(HELD_COUNT.name, HELD_COUNT.text, [projectId]);
  return row?.n ?? 0;
}

/**
 * The Held view (GET /team/held), its decisions (POST /team/held) and its blocks' lifting (POST
 * /team/held/blocks/:blockId/unblock), docs/moderation.md: the queue, the blocks in force, and
 * the services the operator API and the CLI call (domain/moderation/moderation.service.ts).
 */
export function heldView(sql: SqlPool, orm: () => Promise<MikroORM>, assets: TeamAssetPaths) {
  const render = async ({ ctx, session }: TeamRequest, given: Problem[] = []): Promise<SafeHtml> => {
    const i18n = chosenI18n(ctx, session.project.locale);
    const em = (await orm()).em.fork();
    const queue = await heldQueue(em, session.project.id);
    const blocks = await blockList(em, session.project.id);
    const notice = (['approved', 'rejected', 'blocked', 'unblocked'] as const).flatMap((name) => {
      const n = ctx.query[name];
      return typeof n === 'string' && /^\d{1,4}$/.test(n) ? [{ name, count: Number(n) }] : [];
    });
    if (given.length > 0) ctx.status = 400;
    return heldPage({ project: session.project, assets, queue, blocks, notice, problems: problemsIn(i18n, given), i18n });
  };
  return {
    page: (request: TeamRequest) => render(request),

    /** POST /team/held: the decision on the chosen posts, then 303 back with what was done. */
    async decide({ ctx, session }: TeamRequest, { id: ids, decision, block, blockDays }: FormData<typeof heldDecisionForm>): Promise<undefined> {
      const em = (await orm()).em.fork();
      const done = new URLSearchParams();
      if (decision === 'approve') done.set('approved', String((await approveHeld(em, session.project.id, ids)).approved.length));
      else {
        const result = await rejectHeld(em, session.project.id, ids, block, block ? blockDays : undefined);
        done.set('rejected', String(result.rejected.length));
        if (block) done.set('blocked', String(result.blocked));
      }
      seeOther(ctx, `${teamPaths.held}?${done.toString()}`);
      return undefined;
    },

    refused: (request: TeamRequest, { problems }: FormRefusal) => render(request, problems),

    /**
     * POST /team/held/blocks/:blockId/unblock: the block lifted (the API's service), then 303 back
     * to the list of blocks, saying so; a block lifted or ended meanwhile is said too (0), not an error.
     */
    async unblock({ ctx, session }: TeamRequest): Promise<undefined> {
      const blockId = String(ctx.params.blockId);
      if (!UUID.test(blockId)) throw blockNotFound();
      const lifted = await liftBlock((await orm()).em.fork(), session.project.id, blockId.toLowerCase());
      seeOther(ctx, `${teamPaths.held}?unblocked=${lifted ? 1 : 0}#blocks`);
      return undefined;
    },
  };
}

/** The posted ids: each a uuid (lower-cased), once each; undefined when one is not. */
function idsOf(value: unknown): string[] | undefined {
  const list = listOf(value);
  if (!list.every((id): id is string => typeof id === 'string' && UUID.test(id))) return undefined;
  return [...new Set(list.map((id) => id.toLowerCase()))];
}

function listOf(value: unknown): unknown[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
