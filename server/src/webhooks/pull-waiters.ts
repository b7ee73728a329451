import type { Statements } from '../http/mount.js';
import { EXPAND_GROUPED_OF_PROJECT, FAN_OUT_PROJECT } from './deliveries.sql.js';
import { PULL_PROBE } from './listeners.sql.js';

/** How often the shared look runs while at least one pull waits. */
export const PULL_POLL_MS = 250;

/**
 * The waiting pulls of one process (listener-routes.ts). Each pull used to look for itself every
 * 250 ms with three statements (expand, fan-out, claim): 60 waiting listeners took 720 statements
 * a second and cut the embedded database's API rate about 4x (issue 37). Now the pulls that wait
 * share one look every PULL_POLL_MS (none while nobody waits): PULL_PROBE for all of them at once,
 * then, only when events of their projects wait in the outbox, that project's fan-out (once, not
 * once per pull) and the probe again. A pull is woken only when its endpoint has a delivery due,
 * and then runs one statement of its own, its claim. A change written by any process or machine
 * is seen by the next look, so a waiting pull still answers within about PULL_POLL_MS of it.
 */
export interface PullWaiters {
  /**
   * Waits until pull endpoint `endpointId` may have something to claim (true), `ms` have passed
   * or `signal` is aborted (false).
   */
  wait(endpointId: string, ms: number, signal: AbortSignal): Promise<boolean>;
  /**
   * Runs a woken pull's claim, WOKEN_CLAIMS at a time: one event wakes every listener of its
   * project at once, and 60 claims together would take every connection of the embedded
   * database's pool from the API's requests (and make them wait their turn, up to a 503).
   */
  inTurn<T>(claim: () => Promise<T>): Promise<T>;
}

/** How many woken pulls claim at once. */
const WOKEN_CLAIMS = 2;

export function pullWaiters(sql: Statements): PullWaiters {
  /** The waiting pulls' wake-ups, by endpoint. */
  const byEndpoint = new Map<string, Set<(ready: boolean) => void>>();
  let timer: NodeJS.Timeout | undefined;
  let looking = false;

  const schedule = () => {
    if (timer === undefined && !looking && byEndpoint.size > 0) timer = setTimeout(() => void look(), PULL_POLL_MS);
  };

  async function look(): Promise<void> {
    timer = undefined;
    looking = true;
    const ids = [...byEndpoint.keys()];
    let ready: string[];
    try {
      let found = await sql.query<Probed>('', PULL_PROBE, [ids]);
      const projects = new Set(found.filter((row) => row.outbox).map((row) => row.project_id));
      if (projects.size > 0) {
        for (const project of projects) await fanOutProject(sql, project);
        found = await sql.query<Probed>('', PULL_PROBE, [ids]);
      }
      ready = found.filter((row) => row.due).map((row) => row.id);
    } catch {
      // The database failed the look: each pull looks for itself, and answers what it meets (a 503).
      ready = ids;
    } finally {
      looking = false;
    }
    for (const id of ready) for (const wake of [...(byEndpoint.get(id) ?? [])]) wake(true);
    schedule();
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
    wait(endpointId, ms, signal) {
      return new Promise<boolean>((resolve) => {
        if (signal.aborted || ms <= 0) return resolve(false);
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
          if (own.size === 0 && byEndpoint.get(endpointId) === own) byEndpoint.delete(endpointId);
          // Nobody waits: no look is left behind to keep the process (and the database) busy.
          if (byEndpoint.size === 0 && timer !== undefined) {
            clearTimeout(timer);
            timer = undefined;
          }
          resolve(ready);
        };
        const aborted = () => done(false);
        const deadline = setTimeout(() => done(false), ms);
        signal.addEventListener('abort', aborted, { once: true });
        own.add(done);
        schedule();
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
}

/**
 * Makes the deliveries of project `project`'s waiting events now (grouped rows expanded first), as
 * the sender would at its next turn, so that a listener sees an event as soon as it is written.
 */
export async function fanOutProject(sql: Statements, project: string): Promise<void> {
  await sql.query('', EXPAND_GROUPED_OF_PROJECT, [16, project]);
  await sql.query('', FAN_OUT_PROJECT, [project]);
}
