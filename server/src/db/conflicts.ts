import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * PostgreSQL's answers for a transaction that lost a race for locks (40P01, deadlock detected) or
 * could not be serialised (40001). Either way it was rolled back whole, so running it again from
 * the start is safe and is what the caller would do; the server does it instead, a few times, so
 * contention never reaches a caller as a 500.
 */
const LOST_RACE = new Set(['40P01', '40001']);

/** Attempts in all, the first included. Each retry waits a few milliseconds more, with jitter. */
const ATTEMPTS = 5;

/** Whether `error` is a deadlock or serialization failure (from node-postgres or MikroORM). */
export function isLostRace(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, sqlState } = error as { code?: unknown; sqlState?: unknown };
  return LOST_RACE.has(String(code)) || LOST_RACE.has(String(sqlState));
}

/**
 * Runs `attempt`, and again while it fails with a lost race, up to ATTEMPTS times. `attempt`
 * must be a whole transaction (or one statement in its own): one that is part of a larger
 * transaction cannot be retried alone, because the lost race rolled back the whole of it.
 */
export async function retryingLostRaces<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= ATTEMPTS || !isLostRace(error)) throw error;
      // The winner holds its locks until it commits: give it that long, a little more each time.
      await new Promise((resolve) => setTimeout(resolve, tries * (2 + Math.random() * 8)));
    }
  }
}

/**
 * `em.transactional(work)`, retried whole on a lost race. Inside a transaction that is already
 * open (an operator change made under an Idempotency-Key, see http/idempotent-writes.ts) it is a
 * savepoint and is not retried here: the transaction that holds it is, from its start.
 */
export function transaction<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  if (em.isInTransaction()) return em.transactional(work);
  return retryingLostRaces(() => em.transactional(work));
}
