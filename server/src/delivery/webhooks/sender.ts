import { setTimeout as sleep } from 'node:timers/promises';
import type { SqlPool } from '../../db/pool.js';
import type { Logger } from '../../logger.js';
import { DEFAULT_WEBHOOKS_PER_SECOND } from '../../serve-defaults.js';
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
  /**
   * Called when a fan-out has committed (events became deliveries, grouped rows became events): a
   * pull endpoint's deliveries, left unclaimed for its listener, may be due now (wake-ups.ts).
   */
  onFannedOut?: () => void;
}

/** What one claim of a run came to. */
interface Claimed {
  /** The deliveries claimed, each for its attempt: every one is sent, even when a later statement failed. */
  deliveries: ClaimedDelivery[];
  /** Something was fanned out, expanded or claimed: more may be due. */
  busy: boolean;
  /** The statement that failed, when one did. */
  error?: { cause: unknown };
}

/**
 * Sends what is due: fans out the events waiting in the outbox and claims their deliveries, claims
 * the retries that are due, sends each attempt, and records the attempts in batches, until nothing
 * is due. Returns how many attempts it made. Run by the machine's periodic jobs
 * (jobs/machine-jobs.ts), so one sender per machine; several machines share the work by claims.
 *
 * A run never leaves an attempt it made unrecorded (issue 49: a claim statement that failed used
 * to end the run with attempts under way; they reached their receivers, were never recorded, and
 * were sent again when their claims lapsed). When a statement fails, the run claims nothing more,
 * waits for the attempts under way, records them, and only then fails. Attempts whose record
 * itself fails (the database went away) are kept by the sender and recorded by its next run before
 * that run claims anything; recording one attempt twice writes it once (RECORD_OUTCOMES).
 */
export function webhookSender(options: SenderOptions): { sendDue(stopping?: AbortSignal): Promise<number> } {
  const dispatcher = webhookDispatcher({ allowPrivate: options.allowPrivate });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const claimSeconds = Math.ceil((timeoutMs * 2) / 1000) + 5;
  const { sql, logger } = options;
  type FannedOut = { events_fanned: number; id: string | null } & Record<string, unknown>;
  const perSecond = options.perSecond ?? DEFAULT_WEBHOOKS_PER_SECOND;
  // Shared by every run, so the pace holds across them.
  const paced = pace(perSecond);
  const claimTogether = Math.min(REFILL_AT, Math.max(1, Math.floor(perSecond)));
  /** Attempts that ended and wait for their record: the sender's, not a run's, so that none is dropped with a run that failed. */
  let unrecorded: AttemptRecord[] = [];

  /** Records every attempt that ended, in one statement; on a failure they stay, to be recorded by the next call. */
  const recordEnded = async (): Promise<void> => {
    if (unrecorded.length === 0) return;
    const batch = unrecorded;
    unrecorded = [];
    try {
      await recordAttempts(sql, logger, batch);
    } catch (error) {
      unrecorded = batch.concat(unrecorded);
      throw error;
    }
  };

  /**
   * Claims attempts for `free` slots (at least 1): fans out the events that wait alone, then, when
   * they are all out, expands grouped rows and fans out their events, then claims the retries due.
   * One event fans out to each of its endpoints, so the deliveries claimed may outnumber `free`;
   * each later statement is asked only for the room left, and is not run when none is left, so no
   * statement is ever given a limit below 1.
   */
  const claimUpTo = async (free: number): Promise<Claimed> => {
    const deliveries: ClaimedDelivery[] = [];
    const room = () => free - deliveries.length;
    const take = (rows: FannedOut[]) => {
      for (const row of rows) if (row.id !== null) deliveries.push(row as FannedOut & ClaimedDelivery);
    };
    let busy = false;
    try {
      const fresh = await sql.query<FannedOut>('', FAN_OUT_AND_CLAIM, [free, claimSeconds]);
      const fanned = fresh[0]?.events_fanned ?? 0;
      take(fresh);
      busy = fanned > 0;
      if (busy) options.onFannedOut?.();
      // Fewer waited alone than there was room for: grouped rows (a batch statement's events)
      // become their events. At least one is expanded even with no room left, so that a grouped
      // row never waits behind events written after it; their fan-out waits for room.
      if (fanned < free) {
        const [expanded] = await sql.query<{ events: number }>('', EXPAND_GROUPED, [Math.max(1, Math.ceil(room() / 8))]);
        if ((expanded?.events ?? 0) > 0) {
          busy = true;
          if (room() > 0) {
            // As many events as fill the room at the deliveries per event just seen (several endpoints each).
            const perEvent = fanned > 0 ? Math.max(1, (free - room()) / fanned) : 1;
            take(await sql.query<FannedOut>('', FAN_OUT_AND_CLAIM, [Math.max(1, Math.floor(room() / perEvent)), claimSeconds]));
          }
          options.onFannedOut?.();
        }
      }
      if (room() > 0) deliveries.push(...(await sql.query<ClaimedDelivery & Record<string, unknown>>('', CLAIM_DUE, [room(), claimSeconds])));
    } catch (cause) {
      return { deliveries, busy: true, error: { cause } };
    }
    return { deliveries, busy: busy || deliveries.length > 0 };
  };

  return {
    async sendDue(stopping) {
      // What an earlier run could not record goes first: until it is, nothing new is claimed.
      await recordEnded();
      const inFlight = new Set<Promise<void>>();
      let sent = 0;
      let moreDue = true;
      /** The first failure of this run: nothing more is claimed, and the run fails with it once what is under way is recorded. */
      let failure: { cause: unknown } | undefined;
      /** The last record failed: what is left unrecorded waits for the next run. */
      let recordFailed = false;
      for (;;) {
        // Stopping: nothing new is claimed, and the attempts under way end at once (recorded as
        // failed, so they are sent again after the restart), instead of holding the shutdown.
        if (stopping?.aborted || failure) moreDue = false;
        const free = Math.min(WINDOW - inFlight.size, paced.available());
        if (free > 0 && moreDue) {
          const claimed = await claimUpTo(free);
          // An event fanned out to several endpoints may claim more than was free: the pace is paid back.
          paced.take(claimed.deliveries.length);
          for (const delivery of claimed.deliveries) {
            const sending = attempt(dispatcher, timeoutMs, delivery, stopping)
              .then((outcome) => {
                unrecorded.push({ delivery, outcome, decision: decide(delivery, outcome, true) });
              })
              .finally(() => inFlight.delete(sending));
            inFlight.add(sending);
          }
          sent += claimed.deliveries.length;
          // Nothing was due: what is under way finishes, and the next run looks again.
          moreDue = claimed.busy && !claimed.error;
          failure ??= claimed.error;
        }
        if (unrecorded.length > 0) {
          recordFailed = false;
          await recordEnded().catch((cause: unknown) => {
            failure ??= { cause };
            moreDue = false;
            recordFailed = true;
          });
        }
        if (inFlight.size === 0 && !moreDue) {
          if (unrecorded.length === 0) {
            if (failure) throw runFailed(failure, 0);
            return sent;
          }
          // Their record failed: they wait for the next run, which records them first.
          if (recordFailed) throw runFailed(failure, unrecorded.length);
        }
        // Attempts that ended while the last ones were recorded are recorded first.
        if (unrecorded.length > 0 && !recordFailed) continue;
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

/** The error a failed run ends with: its first failure, and how many attempts still wait for their record. */
function runFailed(failure: { cause: unknown } | undefined, unrecorded: number): unknown {
  const cause = failure?.cause ?? new Error('the webhook sender stopped');
  if (unrecorded === 0) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  return new Error(`${message} (${unrecorded} attempts made wait for their record: the next run records them before it claims anything)`, { cause });
}
