import type { MikroORM } from '@mikro-orm/postgresql';
import { FeedbackStatusSchema, PAGE_SIZE_MAX, type FeedbackStatus } from '@feedbackd/sdk/contract';
import { z } from 'zod';
import { updateStatuses } from '../../admin/items.service.js';
import type { SqlPool } from '../../db/pool.js';
import { UUID } from '../../db/uuid.js';
import type { AppContext } from '../../http/context.js';
import type { AssetPaths } from '../kit/assets.js';
import type { SafeHtml } from '../kit/html.js';
import { parseListQuery, readList } from '../kit/lists.js';
import { count, label, type Problem } from '../kit/views/parts.js';
import { formInput, seeOther, type FormData } from '../kit/forms.js';
import type { FormRefusal } from '../kit/pages.js';
import { safeTeamReturn, type TeamRequest } from './requests.js';
import { teamPaths } from './layout.js';
import type { TeamSession } from './session.js';
import { inboxPage } from './views/inbox-page.js';

/** What the inbox lists when no status is asked for: what nobody has looked at yet. */
export const INBOX_DEFAULT_STATUS = 'new';

/** What the bulk change adds to the inbox's address on its way back: said once, and never kept in links. */
const NOTICE_PARAMS = ['changed', 'missing', 'to', 'deleted'] as const;

/** Where the bulk form sends the browser back: the inbox it came from (a team path), or the inbox. */
const backTo = (value: unknown): string => safeTeamReturn(value) ?? teamPaths.inbox;

const SELECT_ITEMS = 'Select at least one item, then choose Change status';

/**
 * The bulk status form: the inbox to go back to, the ids of the chosen items (one or several,
 * each a uuid, lower-cased, once each; at most a page of them), and the new status. Its problems
 * are all shown at the status control, where the change is asked for.
 */
export const bulkStatusForm = formInput(
  z.object({
    return: z.unknown().transform(backTo),
    id: z.preprocess(
      idsOf,
      z.array(z.string(), { error: SELECT_ITEMS }).min(1, { error: SELECT_ITEMS }).max(PAGE_SIZE_MAX, { error: `Change at most ${PAGE_SIZE_MAX} items at once` }),
    ),
    status: FeedbackStatusSchema,
  }),
  { fields: ['return', 'id', 'status'], controls: { id: 'new-status', status: 'new-status' }, say: { status: 'Choose one of the statuses' } },
);

/**
 * Who made a change, in the item's status history: the member's name when they gave one, and
 * the team session by its id (which `feedback sessions list` shows), beside the key that opened it.
 */
export function sessionActor(session: Pick<TeamSession, 'id' | 'name'>): string {
  return session.name ? `${session.name} (team session ${session.id})` : `team session ${session.id}`;
}

/**
 * The inbox (GET /team) and its bulk status change (POST /team/items/status). The list is the
 * API's own statement (listStatement/listValues, as the board runs it); the change is the statement
 * of the API's PATCH service (updateStatuses, which updateItem runs for one item), for all the
 * selected items at once, so its history, counts and webhook events are those of a change made
 * through the API or the CLI.
 */
export function inbox(sql: SqlPool, orm: () => Promise<MikroORM>, assets: AssetPaths) {
  /** The inbox for a query (the request's, or the one a refused bulk change came from), with its problems. */
  const render = async ({ ctx, session }: TeamRequest, params: URLSearchParams, problems: Problem[] = []): Promise<SafeHtml> => {
    const notice = noticeOf(params);
    for (const name of NOTICE_PARAMS) params.delete(name);
    // No status asked for: the new items. An empty one (the filter's "Any") asks for every status.
    if (!params.has('status')) params.set('status', INBOX_DEFAULT_STATUS);
    const query = Object.fromEntries([...params.keys()].map((name) => [name, params.getAll(name).length > 1 ? params.getAll(name) : params.get(name)!]));
    const first = (name: string) => params.get(name) ?? undefined;
    const here = `${teamPaths.inbox}?${params.toString()}`;
    const view = {
      project: session.project,
      assets,
      filters: { status: first('status'), type: first('type'), search: first('search'), sortBy: first('sortBy') },
      here,
      notice,
      problems,
      pageLink: (n: number) => {
        const link = new URLSearchParams(params);
        link.set('page', String(n));
        return `${teamPaths.inbox}?${link.toString()}`;
      },
    };
    const parsed = parseListQuery(query);
    if (!parsed.query) {
      ctx.status = 400;
      return inboxPage({ ...view, problems: [...problems, ...parsed.problems] });
    }
    const list = await readList(sql, session.project.id, parsed.query);
    if (problems.length > 0) ctx.status = 400;
    return inboxPage({ ...view, list });
  };

  return {
    /** GET /team: the inbox, with the API's list query (same names, same validation). */
    page: (request: TeamRequest): Promise<SafeHtml> => render(request, new URLSearchParams(request.ctx.querystring)),

    /**
     * POST /team/items/status, checked (bulkStatusForm): the items and their new status, changed
     * in one statement (updateStatuses): an item deleted or merged meanwhile (or not of this
     * project) is counted as missing, and does not stop the others; one already at the status
     * counts as moved. Then 303 back to the inbox the form came from.
     */
    async changeStatus({ ctx, session }: TeamRequest, { return: back, id: ids, status }: FormData<typeof bulkStatusForm>): Promise<undefined> {
      const { found } = await updateStatuses((await orm()).em.fork(), session.project.id, ids, status, { keyId: session.keyId, actor: sessionActor(session) });
      const changed = found.length;
      const url = new URL(back, 'http://team.invalid');
      url.searchParams.set('changed', String(changed));
      url.searchParams.set('to', status);
      if (changed < ids.length) url.searchParams.set('missing', String(ids.length - changed));
      seeOther(ctx, url.pathname + url.search);
      return undefined;
    },

    /** A refused bulk change: the inbox it came from again (400), the problems at the status control. */
    refused: (request: TeamRequest, { values, problems }: FormRefusal): Promise<SafeHtml> =>
      render(request, new URL(backTo(values.return), 'http://team.invalid').searchParams, problems),
  };
}

/** The posted ids: one or several, each a uuid (lower-cased), once each; undefined when one is not. */
function idsOf(value: unknown): string[] | undefined {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  if (!list.every((id): id is string => typeof id === 'string' && UUID.test(id))) return undefined;
  return [...new Set(list.map((id) => id.toLowerCase()))];
}

/** What the last bulk change did, from the address it came back to. */
function noticeOf(params: URLSearchParams): string | undefined {
  if (params.get('deleted') === '1') return 'The item was deleted.';
  const changed = Number(params.get('changed'));
  const to = FeedbackStatusSchema.safeParse(params.get('to'));
  if (!Number.isInteger(changed) || changed < 0 || !to.success) return undefined;
  const missing = Number(params.get('missing')) || 0;
  const moved = `${count(changed, 'item')} moved to ${label(to.data satisfies FeedbackStatus)}.`;
  return missing > 0 ? `${moved} ${count(missing, 'item')} could not be found (deleted or merged meanwhile).` : moved;
}
