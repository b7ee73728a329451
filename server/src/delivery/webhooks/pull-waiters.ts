import type { Statements } from '../../db/pool.js';
import { EXPAND_GROUPED_OF_PROJECT, FAN_OUT_PROJECT } from './deliveries.sql.js';
import { PULL_PROBE } from './listeners.sql.js';
import { WAKEUP_EVERY_MS, type WebhookWakeups } from './wake-ups.js';

/** How often at most the waiting pulls of a process look at the database together. */
export const PULL_POLL_MS = WAKEUP_EVERY_MS;

/**
 * The waiting pulls of one process (listener-routes.ts). Each pull used to look for itself every
 * 250 ms with three statements (issue 37); then the pulls that waited shared one look every 250 ms,
 * and 60 of them still cut the embedded database's API rate to about half (issue 49). Now they
 * look only when woken: by a change told to this process (wake-ups.ts: a write request that ended
 * here, the jobs' thread, another process), or at the time the last look found that a delivery of
 * a waiting endpoint comes due (a retry's time, the end of a claim). While nothing happens they
 * run no statement at all. A look is PULL_PROBE for every waiting endpoint at once, then, only
 * when events of their projects wait in the outbox, that project's fan-out (once, not once per
 * pull) and the probe again; a pull is woken only when its endpoint has a delivery due, and then
 * runs one statement of its own, its claim. Looks run at most every PULL_POLL_MS, and a change
 * told during a look brings another after it, so none is missed.
 */
export interface PullWaiters {
  /**
   * Waits until pull endpoint `endpointId` may have something to claim (true), `ms` have passed
   * or `signal` is aborted (false). `seen` is the wake-ups' count (WebhookWakeups.changes) read
   * before the pull last looked: a change told since then brings a look at once. `dueInMs`: when,
   * as that look found, a pending delivery of the endpoint comes due (null: none).
   */
  wait(endpointId: string, ms: number, signal: AbortSignal, seen: number, dueInMs: number | null): Promise<boolean>;
  /**
   * Runs a woken pull's claim, WOKEN_CLAIMS at a time: one event wakes every listener of its
   * project at once, and 60 claims together would take every connection of the embedded
   * database's pool from the API's requests (and make them wait their turn, up to a 503).
   */
  inTurn<T>(claim: () => Promise<T>): Promise<T>;
}

/** How many woken pulls claim at once. */
const WOKEN_CLAIMS = 2;

export function pullWaiters(sql: Statements, wakeups: WebhookWakeups): PullWaiters {
  /** The waiting pulls' wake-ups, by endpoint. */
  const byEndpoint = new Map<string, Set<(ready: boolean) => void>>();
  /** When (performance.now()) a pending delivery of a waiting endpoint comes due, as the last look found. */
  const dueAt = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let looking = false;
  /** A change was told during a look, which may have read the database before it. */
  let again = false;
  let lastLook = -Infinity;

  /** A look at `at` (performance.now()), or sooner if one is planned sooner; never sooner than PULL_POLL_MS after the last. */
  const plan = (at: number) => {
    const when = Math.max(at, lastLook + PULL_POLL_MS);
    if (timer !== undefined && timerAt <= when) return;
    clearTimeout(timer);
    timerAt = when;
    timer = setTimeout(() => void look(), Math.max(0, when - performance.now()));
  };
  const lookSoon = () => {
    if (byEndpoint.size === 0) return;
    if (looking) again = true;
    else plan(performance.now());
  };
  const planDue = () => {
    let soonest = Infinity;
    for (const at of dueAt.values()) soonest = Math.min(soonest, at);
    if (soonest < Infinity) plan(soonest);
  };
  wakeups.subscribe(lookSoon);

  async function look(): Promise<void> {
    timer = undefined;
    timerAt = Infinity;
    if (byEndpoint.size === 0) return;
    looking = true;
    again = false;
    lastLook = performance.now();
    const ids = [...byEndpoint.keys()];
    let ready: string[];
    try {
      let found = await sql.query<Probed>('', PULL_PROBE, [ids]);
      const projects = new Set(found.filter((row) => row.outbox).map((row) => row.project_id));
      if (projects.size > 0) {
        for (const project of projects) await fanOutProject(sql, project);
        found = await sql.query<Probed>('', PULL_PROBE, [ids]);
      }
      const now = performance.now();
      for (const id of ids) dueAt.delete(id);
      for (const row of found) if (!row.due && row.due_in_ms !== null && byEndpoint.has(row.id)) dueAt.set(row.id, now + Math.max(0, row.due_in_ms));
      ready = found.filter((row) => row.due).map((row) => row.id);
    } catch {
      // The database failed the look: each pull looks for itself, and answers what it meets (a 503).
      ready = ids;
    } finally {
      looking = false;
    }
    for (const id of ready) for (const wake of [...(byEndpoint.get(id) ?? [])]) wake(true);
    if (again) lookSoon();
    planDue();
  }

  let claiming = 0;
  const turns: (() => void)[] = [];

  return {
    async inTurn(claim) {
      if (claiming >= WOKEN_CLAIMS) await new Promise<void>((resolve) => turns.push(resolve));
      else claiming += 1;
      try {
        return await claim();
      } finally {
        // The turn passes on as it is (`claiming` unchanged), or is given back.
        const next = turns.shift();
        if (next) next();
        else claiming -= 1;
      }
    },
    wait(endpointId, ms, signal, seen, dueInMs) {
      return new Promise<boolean>((resolve) => {
        if (signal.aborted || ms <= 0) return resolve(false);
        if (byEndpoint.size === 0) wakeups.waiting(true);
        let wakes = byEndpoint.get(endpointId);
        if (!wakes) byEndpoint.set(endpointId, (wakes = new Set()));
        const own = wakes;
        let settled = false;
        const done = (ready: boolean) => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          signal.removeEventListener('abort', aborted);
          own.delete(done);
          if (own.size === 0 && byEndpoint.get(endpointId) === own) {
            byEndpoint.delete(endpointId);
            dueAt.delete(endpointId);
          }
          // Nobody waits: no look is left behind to keep the process (and the database) busy.
          if (byEndpoint.size === 0) {
            clearTimeout(timer);
            timer = undefined;
            timerAt = Infinity;
            wakeups.waiting(false);
          }
          resolve(ready);
        };
        const aborted = () => done(false);
        const deadline = setTimeout(() => done(false), ms);
        signal.addEventListener('abort', aborted, { once: true });
        own.add(done);
        if (dueInMs !== null) {
          const at = performance.now() + Math.max(0, dueInMs);
          dueAt.set(endpointId, Math.min(dueAt.get(endpointId) ?? Infinity, at));
          planDue();
        }
        // A change was told after this pull looked and before it waited: look again now.
        if (wakeups.changes !== seen) lookSoon();
      });
    },
  };
}

/** A row of PULL_PROBE. */
interface Probed extends Record<string, unknown> {
  id: string;
  project_id: string;
  due: boolean;
  outbox: boolean;
  due_in_ms: number | null;
}

/**
 * What pull endpoint `endpointId` has now: whether a delivery is due (events of its project that
 * wait for their fan-out are fanned out first, as the sender would at its next turn, so that a
 * listener sees an event as soon as it is written), and in how many ms its next pending one comes
 * due (null: none). Nothing for an endpoint that is not an enabled pull endpoint.
 */
export async function probeEndpoint(sql: Statements, endpointId: string): Promise<{ due: boolean; dueInMs: number | null }> {
  let [found] = await sql.query<Probed>('', PULL_PROBE, [[endpointId]]);
  if (found?.outbox) {
    await fanOutProject(sql, found.project_id);
    [found] = await sql.query<Probed>('', PULL_PROBE, [[endpointId]]);
  }
  return { due: found?.due ?? false, dueInMs: found?.due_in_ms ?? null };
}

/** Makes the deliveries of project `project`'s waiting events now (grouped rows expanded first). */
export async function fanOutProject(sql: Statements, project: string): Promise<void> {
  await sql.query('', EXPAND_GROUPED_OF_PROJECT, [16, project]);
  await sql.query('', FAN_OUT_PROJECT, [project]);
}
