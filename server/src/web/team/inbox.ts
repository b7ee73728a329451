import type { MikroORM } from '@mikro-orm/postgresql';
import { FeedbackStatusSchema, PAGE_SIZE_MAX, type FeedbackStatus } from '@feedbackd/sdk/contract';
import { z } from 'zod';
import { updateStatuses } from '../../domain/items/items.service.js';
import { transaction } from '../../db/conflicts.js';
import type { SqlPool } from '../../db/pool.js';
import { UUID } from '../../db/uuid.js';
import type { TeamAssetPaths } from './team-assets.js';
import type { SafeHtml } from '../kit/html.js';
import { parseListQuery, readList } from '../kit/lists.js';
import type { Problem } from '../kit/views/parts.js';
import { formInput, seeOther, type FormData } from '../kit/forms.js';
import type { FormRefusal } from '../kit/pages.js';
import { safeTeamReturn, type TeamRequest } from './requests.js';
import { teamPaths } from './layout.js';
import { SESSION_COOKIE, type TeamSession } from './session.js';
import { NOTICE_PARAMS, noticeOf } from './inbox-notices.js';
import { readStatusCounts } from './status-counts.js';
import { chosenI18n } from '../kit/locale-choice.js';
import { problemsIn, teamProblem } from './team-problems.js';
import { readUndoToken, UNDO_SECONDS, undoToken, type Undo } from './undo-token.js';
import { inboxPage } from './views/inbox-page.js';
import { heldCount } from './held.js';

/** What the inbox lists when no status is asked for: what nobody has looked at yet. */
export const INBOX_DEFAULT_STATUS = 'new';

/** Where the bulk form sends the browser back: the inbox it came from (a team path), or the inbox. */
const backTo = (value: unknown): string => safeTeamReturn(value) ?? teamPaths.inbox;

// The forms' messages in English (the checks are made before a request has a language); the page says them in its own (team-problems.ts).
const SELECT_ITEMS = teamProblem('team.problem.selectItems');
const UNDO_GONE = teamProblem('team.problem.undoGone');

/** The session's cookie token: the key of its undo tokens (undo-token.ts). */
const sessionKey = ({ ctx }: TeamRequest): string | undefined => ctx.cookies.get(SESSION_COOKIE);

/**
 * The bulk status form: the inbox to go back to, the ids of the chosen items (one or several,
 * each a uuid, lower-cased, once each; at most a page of them), and the new status. "Select all
 * on this page" (`all=page`) adds every id the page listed (`shown`, a hidden field per row): the
 * items the member saw, not whatever the list holds by the time the form arrives. Its problems
 * are all shown at the status control, where the change is asked for.
 */
export const bulkStatusForm = formInput(
  z.preprocess(
    (raw) => {
      const form = raw as Record<string, unknown>;
      return form.all === 'page' ? { ...form, id: [...listOf(form.id), ...listOf(form.shown)] } : form;
    },
    z.object({
      return: z.unknown().transform(backTo),
      id: z.preprocess(
        idsOf,
        z.array(z.string(), { error: SELECT_ITEMS }).min(1, { error: SELECT_ITEMS }).max(PAGE_SIZE_MAX, { error: teamProblem('team.problem.tooMany', { count: PAGE_SIZE_MAX }) }),
      ),
      status: FeedbackStatusSchema,
    }),
  ),
  { fields: ['return', 'id', 'shown', 'all', 'status'], controls: { id: 'new-status', status: 'new-status' }, say: { status: teamProblem('team.problem.status') } },
);

/** The undo of a bulk change (the banner's form): the inbox to go back to, and the signed token (undo-token.ts). */
export const undoForm = formInput(z.object({ return: z.unknown().transform(backTo), undo: z.string().min(1) }), { fields: ['return', 'undo'], say: { undo: UNDO_GONE } });

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
export function inbox(sql: SqlPool, orm: () => Promise<MikroORM>, assets: TeamAssetPaths) {
  /** The inbox for a query (the request's, or the one a refused bulk change came from), with its problems. */
  const render = async (request: TeamRequest, params: URLSearchParams, given: Problem[] = []): Promise<SafeHtml> => {
    const { ctx, session } = request;
    // The member's language, else the board's default (`feedback board brand --locale`).
    const i18n = chosenI18n(ctx, session.project.locale);
    const problems = problemsIn(i18n, given);
    const notice = noticeOf(params, i18n);
    // The undo is offered only for a token this session signed, still fresh.
    const undo = params.get('undo') ?? undefined;
    const undoable = undo !== undefined && readUndoToken(undo, sessionKey(request), session.project.id) !== undefined;
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
      undo: notice && undoable ? undo : undefined,
      problems,
      pageLink: (n: number) => linkWith(params, { page: String(n) }),
      statusLink: (status: string) => linkWith(params, { status, page: undefined }),
      i18n,
    };
    const parsed = parseListQuery(query);
    if (!parsed.query) {
      ctx.status = 400;
      return inboxPage({ ...view, problems: [...problems, ...problemsIn(i18n, parsed.problems)] });
    }
    const list = await readList(sql, session.project.id, parsed.query);
    const counts = await readStatusCounts(sql, session.project.id, parsed.query);
    const held = await heldCount(sql, session.project.id);
    if (problems.length > 0) ctx.status = 400;
    return inboxPage({ ...view, list, counts, held });
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
    async changeStatus(request: TeamRequest, { return: back, id: ids, status }: FormData<typeof bulkStatusForm>): Promise<undefined> {
      const { session } = request;
      // Held: while the banner offers the Undo, the subscribers are not told yet (domain/notifications/holds.sql.ts).
      const { found, changed, before } = await updateStatuses((await orm()).em.fork(), session.project.id, ids, status, { keyId: session.keyId, actor: sessionActor(session) }, { hold: true });
      const url = new URL(back, 'http://team.invalid');
      url.searchParams.set('changed', String(found.length));
      url.searchParams.set('to', status);
      if (found.length < ids.length) url.searchParams.set('missing', String(ids.length - found.length));
      // What the banner's Undo puts back: the items this change really moved, by their status before.
      const key = sessionKey(request);
      if (changed.length > 0 && key) {
        const undo: Undo = { to: status, before: {}, expires: Math.floor(Date.now() / 1000) + UNDO_SECONDS };
        for (const id of changed) (undo.before[before[id]!] ??= []).push(id);
        url.searchParams.set('undo', undoToken(undo, key, session.project.id));
      }
      seeOther(request.ctx, url.pathname + url.search);
      return undefined;
    },

    /**
     * POST /team/items/status/undo: puts the items of a bulk change back, through the same service
     * (updateStatuses, once per status they had before, in one transaction), each only if it is
     * still at the status the change set: one that someone moved since is left as it is (`kept`).
     * Then 303 back to the inbox, which says what was put back.
     */
    async undo(request: TeamRequest, { return: back, undo: token }: FormData<typeof undoForm>): Promise<SafeHtml | undefined> {
      const { session } = request;
      const undo = readUndoToken(token, sessionKey(request), session.project.id);
      if (!undo) return render(request, new URL(back, 'http://team.invalid').searchParams, [{ message: UNDO_GONE }]);
      const by = { keyId: session.keyId, actor: sessionActor(session) };
      const results = await transaction((await orm()).em.fork(), async (tx) => {
        const done = [];
        for (const [status, ids] of Object.entries(undo.before) as [FeedbackStatus, string[]][]) done.push({ ids, ...(await updateStatuses(tx, session.project.id, ids, status, by, { onlyFrom: undo.to })) });
        return done;
      });
      const url = new URL(back, 'http://team.invalid');
      const sum = (pick: (r: (typeof results)[number]) => number) => results.reduce((total, r) => total + pick(r), 0);
      url.searchParams.set('restored', String(sum((r) => r.changed.length)));
      url.searchParams.set('kept', String(sum((r) => r.found.length - r.changed.length)));
      const missing = sum((r) => r.ids.length - r.found.length);
      if (missing > 0) url.searchParams.set('missing', String(missing));
      seeOther(request.ctx, url.pathname + url.search);
      return undefined;
    },

    /** A refused undo (no token): the inbox it came from, with the problem. */
    undoRefused: (request: TeamRequest, { values }: FormRefusal): Promise<SafeHtml> =>
      render(request, new URL(backTo(values.return), 'http://team.invalid').searchParams, [{ message: UNDO_GONE }]),

    /** A refused bulk change: the inbox it came from again (400), the problems at the status control. */
    refused: (request: TeamRequest, { values, problems }: FormRefusal): Promise<SafeHtml> =>
      render(request, new URL(backTo(values.return), 'http://team.invalid').searchParams, problems),
  };
}

/** The posted ids: one or several, each a uuid (lower-cased), once each; undefined when one is not. */
function idsOf(value: unknown): string[] | undefined {
  const list = listOf(value);
  if (!list.every((id): id is string => typeof id === 'string' && UUID.test(id))) return undefined;
  return [...new Set(list.map((id) => id.toLowerCase()))];
}

/** A posted field as a list: absent is none, a repeated field its values. */
function listOf(value: unknown): unknown[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** The inbox's address with some of its query changed (undefined drops a parameter). */
function linkWith(params: URLSearchParams, changes: Record<string, string | undefined>): string {
  const link = new URLSearchParams(params);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) link.delete(name);
    else link.set(name, value);
  }
  return `${teamPaths.inbox}?${link.toString()}`;
}
