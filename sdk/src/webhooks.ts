/**
 * Webhooks as the Standard Webhooks specification signs them (https://www.standardwebhooks.com):
 * `verifyWebhook` for a receiver, `signWebhook` for the server (which imports it from here, so the
 * sender and every receiver share one implementation), `newWebhookSecret` for a new endpoint.
 *
 * Also exported alone as `@feedbackd/sdk/webhooks`: it loads node:crypto and zod, never the
 * client's undici, so a receiver that only verifies carries nothing else.
 *
 * @example
 * import { isKnownWebhookEvent, verifyWebhook } from '@feedbackd/sdk/webhooks';
 *
 * const event = verifyWebhook({ body: rawBody, headers: req.headers, secrets: process.env.FEEDBACK_WEBHOOK_SECRET! });
 * if (isKnownWebhookEvent(event) && event.type === 'vote.added') console.log(event.data.feedback.voteCount);
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  isWebhookEventType,
  UnknownWebhookEventSchema,
  WebhookEventSchema,
  type UnknownWebhookEvent,
  type WebhookEvent,
} from './contract/webhook-events.js';
import { FeedbackError } from './errors.js';
import { formatIssues } from './zod-issues.js';

export * from './contract/webhook-events.js';
export { ErasureCountsSchema, UserErasedDataSchema, type ErasureCounts } from './contract/user-data.js';

/** Why a webhook was refused; see `WebhookVerificationError`. */
export type WebhookVerificationReason = 'missing-headers' | 'stale-timestamp' | 'bad-signature' | 'bad-body';

/**
 * A request that is not a webhook of ours, as far as this receiver can tell. Answer it with a
 * 4xx and do not act on it: the server retries a delivery that is not answered 2xx, which lets
 * a receiver whose secret was out of date catch up once it has the new one.
 *
 * `reason`: `missing-headers`, a `webhook-id`, `webhook-timestamp` or `webhook-signature` header
 * is absent, empty or malformed (a timestamp that is not whole Unix seconds); `stale-timestamp`,
 * the timestamp is further from now than the tolerance, either way (a replay, or a wrong clock);
 * `bad-signature`, no `v1` signature matches any of the secrets (a changed body, a wrong secret,
 * or a body that was parsed and serialised again instead of passed as received); `bad-body`, the
 * signature matched but the body is not UTF-8 JSON of the event contract.
 */
export class WebhookVerificationError extends FeedbackError {
  static {
    this.prototype.name = 'WebhookVerificationError';
  }

  /** Which check failed. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/** What `verifyWebhook` checks. */
export interface VerifyWebhookInput {
  /** The body exactly as received: the raw bytes, or their text. Never a parsed and re-serialised object. */
  body: string | Uint8Array;
  /** The request's headers: a fetch `Headers`, or node:http's `req.headers` (any case of names). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The endpoint's `whsec_` secret; during a rotation, the new and the old one. */
  secrets: string | string[];
  /** How far `webhook-timestamp` may be from now, either way. Default 300 (the specification's 5 minutes). */
  toleranceSeconds?: number;
  /** The time to check the timestamp against. Default: the clock. */
  now?: Date;
}

/** The three headers of a signed webhook. */
export type WebhookHeaders = Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>;

/** What `signWebhook` signs. */
export interface SignWebhookInput {
  /** The event's id, the same across its retries: no `.` (it delimits the signed content) and no spaces. */
  id: string;
  /** The time of this delivery attempt: a `Date`, or whole Unix seconds. */
  timestamp: Date | number;
  /** The body exactly as it will be sent. */
  body: string | Uint8Array;
  /** The endpoint's secret; during a rotation, both, so that a receiver with either one verifies. */
  secrets: string | string[];
}

/** The specification's default tolerance: 5 minutes. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = 'whsec_';
// Canonical base64 only: Buffer.from(text, 'base64') skips what it cannot read, so a mistyped
// secret would otherwise become a different key and fail every signature without saying why.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const WHOLE_SECONDS = /^\d{1,15}$/;
const WEBHOOK_ID = /^[\x21-\x2d\x2f-\x7e]+$/; // visible ASCII but '.'
// Seconds before this (year 5138) are taken for a mistake: milliseconds passed as seconds.
const LARGEST_SECONDS = 1e11;

/**
 * Checks that a request is a webhook of ours, signed with one of `secrets` no further than
 * `toleranceSeconds` from now, and returns its event. Throws `WebhookVerificationError` when it is
 * not; throws a plain `FeedbackError` for a mistake of the caller (a secret that is not a
 * `whsec_` secret, no secret, a body that is not a string or bytes), which is not the sender's.
 *
 * An event of a type this version does not know (from a newer server) is returned, not refused,
 * as an `UnknownWebhookEvent`: its envelope checked, its `data` unknown. Tell the two apart with
 * `isKnownWebhookEvent(event)` before narrowing on `event.type`. A known type whose body breaks
 * its schema is refused (`bad-body`). Fields added by a newer server are accepted and left out.
 */
export function verifyWebhook(input: VerifyWebhookInput): WebhookEvent | UnknownWebhookEvent {
  const keys = secretKeys(input.secrets);
  const body = bodyBytes(input.body);
  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (!(tolerance >= 0)) throw new FeedbackError(`toleranceSeconds must be 0 or more, not ${tolerance}`);

  const id = singleHeader(input.headers, 'webhook-id');
  const timestamp = singleHeader(input.headers, 'webhook-timestamp');
  const signatures = headerValues(input.headers, 'webhook-signature').join(' ');
  if (id === undefined || timestamp === undefined || signatures.trim() === '') {
    throw new WebhookVerificationError('missing-headers', 'webhook-id, webhook-timestamp and webhook-signature headers are required, once each');
  }
  if (!WHOLE_SECONDS.test(timestamp)) {
    throw new WebhookVerificationError('missing-headers', `webhook-timestamp is not whole Unix seconds: ${JSON.stringify(timestamp.slice(0, 40))}`);
  }
  const nowSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Number.isNaN(nowSeconds)) throw new FeedbackError('now is an invalid Date'); // NaN would pass every check below
  const skew = nowSeconds - Number(timestamp);
  if (Math.abs(skew) > tolerance) {
    const when = skew > 0 ? `${skew} s old` : `${-skew} s in the future`;
    throw new WebhookVerificationError('stale-timestamp', `webhook-timestamp is ${when}, beyond the tolerance of ${tolerance} s`);
  }

  // Every v1 signature against every secret; other versions (v1a, a future v2) are skipped, as
  // the specification asks. The header text of the timestamp is signed, exactly as received.
  const expected = keys.map((key) => Buffer.from(signature(key, id, timestamp, body)));
  const matched = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => {
      const given = Buffer.from(entry.slice('v1,'.length));
      return expected.some((mine) => mine.length === given.length && timingSafeEqual(mine, given));
    });
  if (!matched) throw new WebhookVerificationError('bad-signature', 'no v1 signature of webhook-signature matches the secret');

  return parseEvent(body);
}

/**
 * The three headers that sign `body` as the Standard Webhooks specification says: one `v1`
 * signature per secret, space-separated. Throws `FeedbackError` for an id with a `.` or a space,
 * a timestamp that is not whole seconds, or a secret that is not a `whsec_` secret.
 */
export function signWebhook(input: SignWebhookInput): WebhookHeaders {
  const keys = secretKeys(input.secrets);
  const body = bodyBytes(input.body);
  if (!WEBHOOK_ID.test(input.id)) throw new FeedbackError(`a webhook id is visible ASCII without '.': ${JSON.stringify(input.id)}`);
  const timestamp = unixSeconds(input.timestamp);
  return {
    'webhook-id': input.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': keys.map((key) => `v1,${signature(key, input.id, timestamp, body)}`).join(' '),
  };
}

/** A new endpoint secret: `whsec_` and the base64 of 24 random bytes (the specification's least). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** base64 of HMAC-SHA256 over `<id>.<timestamp>.<body>`, the body as its bytes. */
function signature(key: Buffer, id: string, timestamp: string, body: Uint8Array): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

/** The HMAC key of each secret: the bytes its base64 (after `whsec_`) stands for. */
function secretKeys(secrets: string | string[]): Buffer[] {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (!Array.isArray(list) || list.length === 0) throw new FeedbackError('no webhook secret given');
  return list.map((secret, index) => {
    const name = list.length === 1 ? 'the webhook secret' : `webhook secret ${index + 1}`;
    // The secret itself is never put in a message: messages end up in logs.
    if (typeof secret !== 'string' || !secret.startsWith(SECRET_PREFIX)) throw new FeedbackError(`${name} does not start with ${SECRET_PREFIX}`);
    const encoded = secret.slice(SECRET_PREFIX.length);
    if (encoded === '' || !BASE64.test(encoded)) throw new FeedbackError(`${name} is not ${SECRET_PREFIX} and base64`);
    return Buffer.from(encoded, 'base64');
  });
}

function bodyBytes(body: string | Uint8Array): Uint8Array {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  // The usual mistake of a receiver behind a JSON body parser: its object cannot be verified.
  throw new FeedbackError('the webhook body must be the raw body as received (a string or bytes), not a parsed object');
}

function unixSeconds(timestamp: Date | number): string {
  const seconds = timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1000) : timestamp;
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new FeedbackError(`a webhook timestamp is whole Unix seconds or a valid Date, not ${String(timestamp)}`);
  if (seconds >= LARGEST_SECONDS) throw new FeedbackError(`a webhook timestamp is Unix seconds; ${seconds} looks like milliseconds`);
  return String(seconds);
}

/** Every value of a header, whatever the case of its name (node:http lower-cases; a literal record may not). */
function headerValues(headers: VerifyWebhookInput['headers'], name: string): string[] {
  if (typeof headers.get === 'function') {
    const value = (headers as Headers).get(name);
    return value === null ? [] : [value];
  }
  const record = headers as Record<string, string | string[] | undefined>;
  return Object.keys(record)
    .filter((key) => key.toLowerCase() === name)
    .flatMap((key) => record[key] ?? []);
}

/** The one value of a header; undefined when it is absent, empty or given twice (which of two would be signed?). */
function singleHeader(headers: VerifyWebhookInput['headers'], name: string): string | undefined {
  const values = headerValues(headers, name);
  return values.length === 1 && values[0] !== '' ? values[0] : undefined;
}

/** Made on first use: the global TextDecoder loads Node's encoding module, which a client that never verifies a webhook has no use for. */
let utf8: InstanceType<typeof TextDecoder> | undefined;

/** The verified body as an event: a known type against its schema, another against the loose envelope. */
function parseEvent(body: Uint8Array): WebhookEvent | UnknownWebhookEvent {
  let json: unknown;
  try {
    utf8 ??= new TextDecoder('utf-8', { fatal: true });
    json = JSON.parse(utf8.decode(body));
  } catch (error) {
    throw new WebhookVerificationError('bad-body', 'the webhook body is not UTF-8 JSON', { cause: error });
  }
  const type = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined;
  // The schema is chosen by type rather than tried in turn, so that a known type with a broken
  // body is reported against its own schema instead of passing as an unknown event.
  const schema = typeof type === 'string' && isWebhookEventType(type) ? WebhookEventSchema : UnknownWebhookEventSchema;
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new WebhookVerificationError('bad-body', `the webhook body breaks the event contract: ${formatIssues(parsed.error)}`);
  return parsed.data;
}
