import { request, type Dispatcher } from 'undici';
import { WEBHOOK_RESPONSE_EXCERPT_CHARS } from '@feedbackd/sdk/contract';
import { signWebhook, type WebhookHeaders } from '@feedbackd/sdk/webhooks';
import type { SqlPool } from '../../db/pool.js';
import type { Logger } from '../../logger.js';
import { formatBody } from './chat-formats.js';
import { DISABLE_ENDPOINT, RECORD_OUTCOMES, type ClaimedDelivery } from './deliveries.sql.js';

/*
 * One attempt of a delivery: its body and signature, the POST, what follows its outcome (success,
 * a retry on the schedule, the end), and its record in the log. The sender (sender.ts), a test
 * sent on request (routes.ts) and a listener's report (listener-routes.ts) all come here.
 */

/**
 * How long after a failed attempt the next one is due, by the number of the attempt that failed:
 * about three days in all (docs/webhooks.md, "Retries"). After the last, the delivery is failed.
 */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000, 24 * 3_600_000, 24 * 3_600_000];
/** Attempts in all: the first, then one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** The longest an attempt may take (connect, answer, body) before it counts as failed. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** What one attempt came to. */
export interface AttemptOutcome {
  /** When the attempt began. */
  at: Date;
  status: number | null;
  latencyMs: number;
  error: string | null;
  response: string | null;
  /** Seconds the receiver asked to wait (Retry-After on 429 and 503). */
  retryAfterSeconds?: number;
}

/** What follows an attempt: the delivery's next state, and whether its endpoint is disabled for it. */
export interface Decision {
  state: 'pending' | 'succeeded' | 'failed';
  lastError: string | null;
  /** With `pending`: when the next attempt is due. */
  retryInMs: number | null;
  /** The endpoint is disabled with this reason; with `since`, only if nothing succeeded since then. */
  disable?: { reason: string; since?: string };
}

/** What recording an attempt needs of its delivery. */
export type AttemptedDelivery = Pick<ClaimedDelivery, 'id' | 'attempt' | 'endpoint_id' | 'timestamp'>;

/** One attempt, ready to be recorded. */
export interface AttemptRecord {
  delivery: AttemptedDelivery;
  outcome: AttemptOutcome;
  decision: Decision;
}

/**
 * Sends one claimed delivery and records the attempt and what follows. With `retries` false (a
 * test sent on request) a failure is final at once.
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
  const outcome = await attempt(dispatcher, timeoutMs, delivery, stopping);
  await recordOutcome(sql, logger, delivery, outcome, retries);
}

/**
 * Records what one attempt came to and what follows it. The sender's own attempts and those a
 * listener reports (`feedback webhooks listen`, listener-routes.ts) both come here.
 */
export async function recordOutcome(sql: Pick<SqlPool, 'query'>, logger: Logger, delivery: AttemptedDelivery, outcome: AttemptOutcome, retries = true): Promise<void> {
  await recordAttempts(sql, logger, [{ delivery, outcome, decision: decide(delivery, outcome, retries) }]);
}

/** A claimed delivery's body: its event, in its endpoint's format. */
export function deliveryBody(delivery: ClaimedDelivery): string {
  const event = `{"id":${JSON.stringify(delivery.event_id)},"type":${JSON.stringify(delivery.type)},"timestamp":${JSON.stringify(delivery.timestamp)},"data":${delivery.data}}`;
  return formatBody(delivery.format, event);
}

/** The Standard Webhooks headers of an attempt of `delivery` with `body`, signed at `at` (by both secrets during a rotation). */
export function signDelivery(delivery: ClaimedDelivery, body: string, at: Date = new Date()): WebhookHeaders {
  const secrets = delivery.previous_secret ? [delivery.secret, delivery.previous_secret] : [delivery.secret];
  return signWebhook({ id: `msg_${delivery.id}`, timestamp: at, body, secrets });
}

/**
 * What follows an attempt: only a 2xx is success; `410 Gone` fails the delivery and disables its
 * endpoint; otherwise a retry on the schedule (or when the receiver asked), until the last attempt,
 * after which the endpoint is disabled if nothing succeeded since this delivery began.
 */
export function decide(delivery: AttemptedDelivery, outcome: AttemptOutcome, retries: boolean): Decision {
  if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) return { state: 'succeeded', lastError: null, retryInMs: null };
  const error = outcome.error ?? `HTTP ${outcome.status}`;
  if (outcome.status === 410) return { state: 'failed', lastError: error, retryInMs: null, disable: { reason: 'the endpoint answered 410 Gone' } };
  if (!retries) return { state: 'failed', lastError: error, retryInMs: null };
  if (delivery.attempt >= MAX_ATTEMPTS) {
    return { state: 'failed', lastError: error, retryInMs: null, disable: { reason: `every attempt failed since ${delivery.timestamp} (last: ${error})`, since: delivery.timestamp } };
  }
  return { state: 'pending', lastError: error, retryInMs: nextDelayMs(delivery.attempt, outcome.retryAfterSeconds) };
}

/** Records attempts and their deliveries' next states in one statement, then disables the endpoints that a decision says to. */
export async function recordAttempts(sql: Pick<SqlPool, 'query'>, logger: Logger, records: readonly AttemptRecord[]): Promise<void> {
  const column = <T>(value: (record: AttemptRecord) => T) => records.map(value);
  await sql.query('', RECORD_OUTCOMES, [
    column((r) => r.delivery.id),
    column((r) => r.outcome.at.toISOString()),
    column((r) => r.outcome.status),
    column((r) => r.outcome.latencyMs),
    column((r) => r.outcome.error),
    column((r) => r.outcome.response),
    column((r) => r.decision.state),
    column((r) => r.decision.lastError),
    column((r) => r.decision.retryInMs),
  ]);
  for (const { delivery, decision } of records) {
    if (!decision.disable) continue;
    const { reason, since } = decision.disable;
    await sql.query('', DISABLE_ENDPOINT, [delivery.endpoint_id, reason, since !== undefined, since ?? null]);
    if (since === undefined) logger.warn(`webhook endpoint disabled: ${reason}`, { endpoint: delivery.endpoint_id });
    else logger.warn('webhook delivery given up', { delivery: delivery.id, endpoint: delivery.endpoint_id, attempts: delivery.attempt, error: decision.lastError });
  }
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

/** One POST of the delivery's event: redirects are not followed; `timeoutMs` bounds it all. */
export async function attempt(dispatcher: Dispatcher, timeoutMs: number, delivery: ClaimedDelivery, stopping?: AbortSignal): Promise<AttemptOutcome> {
  const at = new Date();
  const started = performance.now();
  const body = deliveryBody(delivery);
  const headers = signDelivery(delivery, body, at);
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
      at,
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
    return { at, status: null, latencyMs: Math.round(performance.now() - started), error: message, response: null };
  }
}

/** The start of an answer's body, read no further than the log keeps; the rest is discarded. */
async function excerpt(body: Dispatcher.ResponseData['body']): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    text += (chunk as Buffer).toString('utf8');
    if (text.length >= WEBHOOK_RESPONSE_EXCERPT_CHARS) {
      body.destroy();
      break;
    }
  }
  return text.slice(0, WEBHOOK_RESPONSE_EXCERPT_CHARS);
}
