import { setTimeout as sleep } from 'node:timers/promises';
import type { SqlPool } from '../db/pool.js';
import type { Logger } from '../logger.js';
import { DEFAULT_WEBHOOKS_PER_SECOND } from '../serve-defaults.js';
import { attempt, decide, DEFAULT_TIMEOUT_MS, recordAttempts, type AttemptRecord } from './attempts.js';
import { CLAIM_DUE, EXPAND_GROUPED, FAN_OUT_AND_CLAIM, type ClaimedDelivery } from './deliveries.sql.js';
import { pace } from './pace.js';
import { webhookDispatcher } from './safe-target.js';

/**
 * Attempts under way at once. A slot that frees is filled again, so one slow endpoint holds up only
 * the slots it occupies; claims are made for several free slots at a time (REFILL_AT), so that a
 * busy sender runs one claim statement per batch of attempts, not per attempt.
 */
const WINDOW = 64;
const REFILL_AT = 16;
/** How long a free slot waits for others before a claim fills what is free (a slow endpoint holds the rest). */
const REFILL_WAIT_MS = 20;

export interface SenderOptions {
  sql: Pick<SqlPool, 'query'>;
  logger: Logger;
  /** Allow targets on loopback and private networks (`serve --webhooks-allow-private`). */
  allowPrivate: boolean;
  timeoutMs?: number;
  /** Attempts a second at most, from this machine (`serve --webhooks-per-second`; DEFAULT_WEBHOOKS_PER_SECOND). */
  perSecond?: number;
}

/**
 * Sends what is due: fans out the events waiting in the outbox and claims their deliveries, claims
 * the retries that are due, sends each attempt, and records the attempts in batches, until nothing
 * is due. Returns how many attempts it made. Run by the machine's periodic jobs
 * (jobs/machine-jobs.ts), so one sender per machine; several machines share the work by claims.
 */
export function webhookSender(options: SenderOptions): { sendDue(stopping?: AbortSignal): Promise<number> } {
  const dispatcher = webhookDispatcher({ allowPrivate: options.allowPrivate });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const claimSeconds = Math.ceil((timeoutMs * 2) / 1000) + 5;
  const { sql, logger } = options;
  const claim = async (statement: string, limit: number) => (limit > 0 ? await sql.query<ClaimedDelivery & Record<string, unknown>>('', statement, [limit, claimSeconds]) : []);
  type FannedOut = { events_fanned: number; id: string | null } & Record<string, unknown>;
  const perSecond = options.perSecond ?? DEFAULT_WEBHOOKS_PER_SECOND;
  // Shared by every run, so the pace holds across them.
  const paced = pace(perSecond);
  const claimTogether = Math.min(REFILL_AT, Math.max(1, Math.floor(perSecond)));
  return {
    async sendDue(stopping) {
      const inFlight = new Set<Promise<void>>();
      // Attempts that ended and wait to be recorded, in one statement per turn of the loop.
      let ended: AttemptRecord[] = [];
      let sent = 0;
      let moreDue = true;
      for (;;) {
        // Stopping: nothing new is claimed, and the attempts under way end at once (recorded as
        // failed, so they are sent again after the restart), instead of holding the shutdown.
        if (stopping?.aborted) moreDue = false;
        const free = Math.min(WINDOW - inFlight.size, paced.available());
        let claimed: ClaimedDelivery[] = [];
        if (free > 0 && moreDue) {
          let fresh = await sql.query<FannedOut>('', FAN_OUT_AND_CLAIM, [free, claimSeconds]);
          let fanned = fresh[0]?.events_fanned ?? 0;
          let expanded = 0;
          // Room for more than waited alone: grouped rows (a batch statement's events) become their
          // events, which are fanned out at once.
          if (fanned < free) {
            [{ events: expanded }] = (await sql.query<{ events: number }>('', EXPAND_GROUPED, [Math.ceil((free - fanned) / 8)])) as [{ events: number }];
            if (expanded > 0) {
              const more = await sql.query<FannedOut>('', FAN_OUT_AND_CLAIM, [free - fresh.filter((row) => row.id !== null).length, claimSeconds]);
              fresh = fresh.concat(more);
              fanned += more[0]?.events_fanned ?? 0;
            }
          }
          claimed = fresh.filter((row): row is FannedOut & ClaimedDelivery => row.id !== null);
          if (claimed.length < free) claimed = claimed.concat(await claim(CLAIM_DUE, free - claimed.length));
          // An event fanned out to several endpoints may claim more than was free: the pace is paid back.
          paced.take(claimed.length);
          // Nothing was due: what is under way finishes, and the next run looks again.
          moreDue = claimed.length > 0 || fanned > 0 || expanded > 0;
        }
        for (const delivery of claimed) {
          const sending = attempt(dispatcher, timeoutMs, delivery, stopping)
            .then((outcome) => {
              ended.push({ delivery, outcome, decision: decide(delivery, outcome, true) });
            })
            .finally(() => inFlight.delete(sending));
          inFlight.add(sending);
        }
        sent += claimed.length;
        if (ended.length > 0) {
          const batch = ended;
          ended = [];
          await recordAttempts(sql, logger, batch).catch((error: unknown) =>
            logger.warn('webhook attempts not recorded; their claims expire and they are sent again', { deliveries: batch.length, error: String(error) }),
          );
        }
        if (inFlight.size === 0 && ended.length === 0 && !moreDue) return sent;
        // Attempts that ended while the last ones were recorded are recorded first.
        if (ended.length > 0) continue;
        if (!moreDue) {
          await Promise.race(inFlight);
          continue;
        }
        // More is due: wait until one claim can fill several slots within the pace, or, with some
        // room, a moment (a slow endpoint may hold the other slots for long).
        const deadline = performance.now() + Math.max(REFILL_WAIT_MS, paced.msUntil(claimTogether));
        while (!stopping?.aborted) {
          const room = WINDOW - inFlight.size;
          if (room >= claimTogether && paced.msUntil(claimTogether) === 0) break;
          const left = deadline - performance.now();
          if (left <= 0 && room > 0) break;
          await (left > 0 ? Promise.race([...inFlight, sleep(left, undefined, { signal: stopping }).catch(() => {})]) : Promise.race(inFlight));
        }
      }
    },
  };
}
