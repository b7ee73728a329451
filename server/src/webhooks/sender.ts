import { request, type Dispatcher } from 'undici';
import { signWebhook, type WebhookHeaders } from '@feedbackd/sdk/webhooks';
import type { SqlPool } from '../db/pool.js';
import type { Logger } from '../logger.js';
import { formatBody } from './chat-formats.js';
import { CLAIM_DUE, DISABLE_ENDPOINT, RECORD_OUTCOME, type ClaimedDelivery } from './deliveries.sql.js';
import { webhookDispatcher } from './safe-target.js';

/**
 * How long after a failed attempt the next one is due, by the number of the attempt that failed:
 * about three days in all (docs/webhooks.md, "Retries"). After the last, the delivery is failed.
 */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000, 24 * 3_600_000, 24 * 3_600_000];
/** Attempts in all: the first, then one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** The longest an attempt may take (connect, answer, body) before it counts as failed. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** How much of an answer the log keeps. */
export const RESPONSE_EXCERPT_CHARS = 2_048;
/** Deliveries claimed per round; a claim outlives the slowest attempt. */
const CLAIM_BATCH = 16;

export interface SenderOptions {
  sql: Pick<SqlPool, 'query'>;
  logger: Logger;
  /** Allow targets on loopback and private networks (`serve --webhooks-allow-private`). */
  allowPrivate: boolean;
  timeoutMs?: number;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  status: number | null;
  latencyMs: number;
  error: string | null;
  response: string | null;
  /** Seconds the receiver asked to wait (Retry-After on 429 and 503). */
  retryAfterSeconds?: number;
}

/**
 * Sends what is due: claims a batch, sends each attempt, records it and decides what follows,
 * until nothing is due. Returns how many attempts it made. Run by the machine's periodic jobs
 * (jobs/machine-jobs.ts), so one sender per machine; several machines share the work by claims.
 */
export function webhookSender(options: SenderOptions): { sendDue(stopping?: AbortSignal): Promise<number> } {
  const dispatcher = webhookDispatcher({ allowPrivate: options.allowPrivate });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const claimSeconds = Math.ceil((timeoutMs * 2) / 1000) + 5;
  return {
    async sendDue(stopping) {
      // A rolling window of CLAIM_BATCH attempts: a slot that frees claims the next due delivery,
      // so one slow endpoint holds up only the slots it occupies, not a whole batch.
      const inFlight = new Set<Promise<void>>();
      let sent = 0;
      for (;;) {
        // Stopping: nothing new is claimed, and the attempts under way end at once (recorded as
        // failed, so they are sent again after the restart), instead of holding the shutdown.
        const free = stopping?.aborted ? 0 : CLAIM_BATCH - inFlight.size;
        const claimed = free > 0 ? await options.sql.query<ClaimedDelivery & Record<string, unknown>>('', CLAIM_DUE, [free, claimSeconds]) : [];
        for (const delivery of claimed) {
          const sending = sendClaimed(options.sql, options.logger, dispatcher, timeoutMs, delivery, true, stopping)
            .catch((error: unknown) => options.logger.warn('webhook attempt not recorded; its claim expires and it is sent again', { delivery: delivery.id, error: String(error) }))
            .finally(() => inFlight.delete(sending));
          inFlight.add(sending);
        }
        sent += claimed.length;
        if (inFlight.size === 0) return sent;
        // Wait for a slot when the window is full or nothing more is due yet.
        if (claimed.length === 0 || inFlight.size >= CLAIM_BATCH) await Promise.race(inFlight);
      }
    },
  };
}

/**
 * Sends one claimed delivery, records the attempt and decides what follows. With `retries` false
 * (a test sent on request) a failure is final at once.
 */
export async function sendClaimed(
  sql: Pick<SqlPool, 'query'>,
  logger: Logger,
  dispatcher: Dispatcher,
  timeoutMs: number,
  delivery: ClaimedDelivery,
  retries = true,
  stopping?: AbortSignal,
): Promise<void> {
  const outcome = await attempt(dispatcher, timeoutMs, delivery, deliveryBody(delivery), stopping);
  await recordOutcome(sql, logger, delivery, outcome, retries);
}

/** A claimed delivery's body: its event, in its endpoint's format. */
export function deliveryBody(delivery: ClaimedDelivery): string {
  const event = `{"id":${JSON.stringify(delivery.event_id)},"type":${JSON.stringify(delivery.type)},"timestamp":${JSON.stringify(delivery.timestamp)},"data":${delivery.data}}`;
  return formatBody(delivery.format, event);
}

/** The Standard Webhooks headers of an attempt of `delivery` with `body`, signed now (by both secrets during a rotation). */
export function signDelivery(delivery: ClaimedDelivery, body: string): WebhookHeaders {
  const secrets = delivery.previous_secret ? [delivery.secret, delivery.previous_secret] : [delivery.secret];
  return signWebhook({ id: `msg_${delivery.id}`, timestamp: new Date(), body, secrets });
}

/**
 * Records what an attempt of a claimed delivery came to and decides what follows: success, a
 * retry on the schedule, or the end (a `410` disables the endpoint; after the last attempt the
 * delivery fails and the endpoint may be disabled). The sender's attempts and those a listener
 * reports (`feedback webhooks listen`, listener-routes.ts) both come here.
 */
export async function recordOutcome(
  sql: Pick<SqlPool, 'query'>,
  logger: Logger,
  delivery: Pick<ClaimedDelivery, 'id' | 'attempt' | 'endpoint_id' | 'timestamp'>,
  outcome: AttemptOutcome,
  retries = true,
): Promise<void> {
  const record = (state: 'pending' | 'succeeded' | 'failed', lastError: string | null, retryInMs: number | null = null) =>
    sql.query('', RECORD_OUTCOME, [delivery.id, outcome.status, outcome.latencyMs, outcome.error, outcome.response, state, lastError, retryInMs]);
  if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
    await record('succeeded', null);
    return;
  }
  const error = outcome.error ?? `HTTP ${outcome.status}`;
  if (outcome.status === 410) {
    await record('failed', error);
    await sql.query('', DISABLE_ENDPOINT, [delivery.endpoint_id, 'the endpoint answered 410 Gone', false, null]);
    logger.warn('webhook endpoint disabled: it answered 410 Gone', { endpoint: delivery.endpoint_id });
    return;
  }
  if (!retries) {
    await record('failed', error);
    return;
  }
  if (delivery.attempt >= MAX_ATTEMPTS) {
    await record('failed', error);
    const reason = `every attempt failed since ${delivery.timestamp} (last: ${error})`;
    await sql.query('', DISABLE_ENDPOINT, [delivery.endpoint_id, reason, true, delivery.timestamp]);
    logger.warn('webhook delivery given up', { delivery: delivery.id, endpoint: delivery.endpoint_id, attempts: delivery.attempt, error });
    return;
  }
  await record('pending', error, nextDelayMs(delivery.attempt, outcome.retryAfterSeconds));
}

/**
 * The wait before the attempt after attempt `failed` (from 1): the schedule's, with up to 10 %
 * jitter either way (so that many deliveries that failed together do not all come back together),
 * or longer when the receiver asked for it with Retry-After (at most a day).
 */
export function nextDelayMs(failed: number, retryAfterSeconds?: number, random: () => number = Math.random): number {
  const base = RETRY_DELAYS_MS[Math.min(failed, RETRY_DELAYS_MS.length) - 1]!;
  const jittered = Math.round(base * (0.9 + 0.2 * random()));
  const asked = retryAfterSeconds === undefined ? 0 : Math.min(retryAfterSeconds * 1000, 24 * 3_600_000);
  return Math.max(jittered, asked);
}

/** One POST: only a 2xx is success; redirects are not followed; `timeoutMs` bounds it all. */
async function attempt(dispatcher: Dispatcher, timeoutMs: number, delivery: ClaimedDelivery, body: string, stopping?: AbortSignal): Promise<AttemptOutcome> {
  const started = performance.now();
  const headers = signDelivery(delivery, body);
  try {
    const response = await request(delivery.url, {
      method: 'POST',
      dispatcher,
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'feedback-webhooks' },
      body,
      signal: stopping ? AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping]) : AbortSignal.timeout(timeoutMs),
    });
    const text = await excerpt(response.body);
    const retryAfter = Number(response.headers['retry-after']);
    return {
      status: response.statusCode,
      latencyMs: Math.round(performance.now() - started),
      error: null,
      response: text,
      ...((response.statusCode === 429 || response.statusCode === 503) && Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {}),
    };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const message = stopping?.aborted
      ? 'the server stopped before an answer'
      : timedOut
        ? `no answer within ${timeoutMs / 1000} s`
        : error instanceof Error
          ? error.message
          : String(error);
    return { status: null, latencyMs: Math.round(performance.now() - started), error: message, response: null };
  }
}

/** The start of an answer's body, read no further than the log keeps; the rest is discarded. */
async function excerpt(body: Dispatcher.ResponseData['body']): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    text += (chunk as Buffer).toString('utf8');
    if (text.length >= RESPONSE_EXCERPT_CHARS) {
      body.destroy();
      break;
    }
  }
  return text.slice(0, RESPONSE_EXCERPT_CHARS);
}
