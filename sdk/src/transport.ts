import { randomUUID } from 'node:crypto';
import { Pool, errors as undiciErrors } from './undici-parts.js';
import type { z } from 'zod';
import { routes, type OperationName, type RouteDefinition } from './contract/routes.js';
import {
  apiErrorFor,
  ConnectionError,
  FeedbackApiError,
  FeedbackError,
  TimeoutError,
  UnexpectedResponseError,
} from './errors.js';
import { parseRetryAfter, retryDelay, sleep } from './retry.js';
import { formatIssues } from './zod-issues.js';

/** Per-call options, accepted as the last argument of every method. */
export interface RequestOptions {
  /** Time limit of one attempt in milliseconds (connect, wait and read the body); overrides the client's. */
  timeoutMs?: number;
  /** Retries of this call after a 429, a 5xx or a connection failure; overrides the client's. */
  maxRetries?: number;
  /**
   * The `Idempotency-Key` of a POST, PATCH or DELETE. A call that may be retried (`maxRetries` above
   * 0, the default) carries one: a fresh `crypto.randomUUID()` per call unless you give one, reused
   * by all its retries, so the server carries the call out at most once. With `maxRetries: 0` none
   * is sent unless you give one (nothing will repeat the call). Give your own to make a call safe to
   * repeat across processes, e.g. after a crash. Ignored on GET requests, which are safe to repeat,
   * and on the POSTs whose route takes none (`webhooks.pull`, which may wait for long).
   */
  idempotencyKey?: string;
  /** Aborts the call (the attempt in flight and any wait before a retry); the call rejects with a FeedbackError. */
  signal?: AbortSignal;
}

/**
 * Settings of a {@link Transport}, already resolved and checked by FeedbackClient.
 * @internal
 */
export interface TransportConfig {
  /** Origin plus optional path prefix, without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  userAgent: string;
}

/**
 * A query parameter value: arrays are sent as one comma-separated value, `undefined` is left out.
 * @internal
 */
export type QueryValue = string | number | readonly string[] | undefined;

/**
 * What one call sends, besides what the route table fixes (method, path template).
 * @internal
 */
export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Headers of the operation itself (the end user's token of a comment's change), sent with every attempt. */
  headers?: Record<string, string>;
}

type Routes = typeof routes;
/** The parsed success body of an operation, as its contract schema outputs it. */
export type OperationResult<Op extends OperationName> = z.output<Routes[Op]['responses'][keyof Routes[Op]['responses']]>;

/** How error messages name each operation: the SDK method a caller wrote. */
const METHOD_NAMES: Record<OperationName, string> = {
  identify: 'users.identify',
  createFeedback: 'feedback.create',
  listFeedback: 'feedback.list',
  similarFeedback: 'feedback.similar',
  getFeedback: 'feedback.get',
  toggleVote: 'votes.toggle',
  getVote: 'votes.get',
  updateFeedback: 'admin.update',
  deleteFeedback: 'admin.delete',
  listComments: 'comments.list',
  addComment: 'comments.create',
  updateComment: 'comments.update',
  deleteComment: 'comments.delete',
  commentHistory: 'comments.history',
  mergeFeedback: 'admin.merge',
  eraseUser: 'users.erase',
  exportUser: 'users.export',
  createWebhook: 'webhooks.create',
  listWebhooks: 'webhooks.list',
  getWebhook: 'webhooks.get',
  updateWebhook: 'webhooks.update',
  deleteWebhook: 'webhooks.delete',
  rotateWebhookSecret: 'webhooks.rotateSecret',
  testWebhook: 'webhooks.test',
  listWebhookDeliveries: 'webhooks.deliveries',
  recoverWebhook: 'webhooks.recover',
  redeliverWebhookDelivery: 'webhooks.redeliver',
  listenWebhook: 'webhooks.listen',
  pullWebhookDeliveries: 'webhooks.pull',
  reportWebhookDelivery: 'webhooks.reportOutcome',
  createSignInLink: 'admin.signInLink',
  getBoard: 'admin.board',
  updateBoard: 'admin.updateBoard',
  listChangelog: 'changelog.list',
  createChangelog: 'changelog.create',
  updateChangelog: 'changelog.update',
  publishChangelog: 'changelog.publish',
  deleteChangelog: 'changelog.delete',
  listHeld: 'moderation.list',
  approveHeld: 'moderation.approve',
  rejectHeld: 'moderation.reject',
  listBlocks: 'moderation.blocks',
  unblock: 'moderation.unblock',
  listNotifications: 'notifications.list',
  retryNotifications: 'notifications.retry',
  updateNotificationSettings: 'notifications.settings',
  getSubscription: 'subscriptions.get',
  subscribe: 'subscriptions.subscribe',
  unsubscribe: 'subscriptions.unsubscribe',
  unsubscribeAll: 'subscriptions.unsubscribe',
  listSubscribers: 'subscriptions.list',
};

/**
 * Sends the operations of the route table over one keep-alive undici Pool: builds the request,
 * enforces the per-attempt timeout, retries what may be retried, and checks every success body
 * against the contract. FeedbackClient owns one; the resources call it.
 * @internal
 */
export class Transport {
  readonly #config: TransportConfig;
  readonly #pool: InstanceType<typeof Pool>;
  readonly #pathPrefix: string;
  /** Aborted by close(): wakes any call waiting to retry. */
  readonly #closing = new AbortController();
  #closed: Promise<void> | undefined;

  constructor(config: TransportConfig) {
    this.#config = config;
    const url = new URL(config.baseUrl);
    this.#pathPrefix = url.pathname.replace(/\/+$/, '');
    this.#pool = new Pool(url.origin, {
      // Our own per-attempt timer covers connecting, headers and body together.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  /** Performs `operation`, with retries; resolves to the success body checked by the contract. */
  async call<Op extends OperationName>(operation: Op, input: CallInput, options: RequestOptions = {}): Promise<OperationResult<Op>> {
    const route: RouteDefinition = routes[operation];
    const label = `${METHOD_NAMES[operation]} (${route.method} ${route.path})`;
    const timeoutMs = options.timeoutMs === undefined ? this.#config.timeoutMs : checkTimeout('timeoutMs', options.timeoutMs);
    const maxRetries = options.maxRetries === undefined ? this.#config.maxRetries : checkRetries('maxRetries', options.maxRetries);
    const signal = options.signal;

    const headers: Record<string, string> = {
      ...input.headers,
      'x-api-key': this.#config.apiKey,
      accept: 'application/json',
      'user-agent': this.#config.userAgent,
    };
    let body: string | undefined;
    if (input.body !== undefined) {
      try {
        body = JSON.stringify(input.body);
      } catch (error) {
        throw new FeedbackError(`${label}: the request body cannot be sent as JSON: ${messageOf(error)}`, { cause: error });
      }
      headers['content-type'] = 'application/json';
    }
    // One key for the whole call, so every retry of a POST, PATCH or DELETE is recognised as the
    // same request (a DELETE retried after a lost response gets its 200 again, not a 404). A call
    // that will not be retried gets none unless the caller gives one: a key costs the server a
    // transaction and two more round trips (claim and store), which protect only a repeat.
    const idempotencyKey = options.idempotencyKey ?? (maxRetries > 0 ? randomUUID() : undefined);
    if (route.method !== 'GET' && route.idempotencyKey !== false && idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    const path = this.#pathPrefix + fillPath(route.path, input.params ?? {}) + queryString(input.query ?? {});

    for (let attempt = 0; ; attempt++) {
      this.#assertOpen();
      if (signal?.aborted) throw abortedError(signal);
      try {
        const attemptLabel = maxRetries > 0 ? `${label}, attempt ${attempt + 1} of ${maxRetries + 1}` : label;
        return (await this.#attempt(route, label, attemptLabel, path, headers, body, timeoutMs, signal)) as OperationResult<Op>;
      } catch (error) {
        const wait = attempt < maxRetries ? retryWait(error, attempt, this.#config.maxRetryDelayMs) : undefined;
        if (wait === undefined) throw error;
        try {
          await sleep(wait, signal ? [signal, this.#closing.signal] : [this.#closing.signal]);
        } catch {
          if (signal?.aborted) throw abortedError(signal);
          throw closedError();
        }
      }
    }
  }

  /** Closes the pool once: idle sockets now, busy ones when their response is read. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#closing.abort();
      await this.#pool.close();
    })();
    return this.#closed;
  }

  /** One attempt: a response that is an error status or breaks the contract throws a FeedbackError. */
  async #attempt(
    route: RouteDefinition,
    label: string,
    attemptLabel: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
    userSignal: AbortSignal | undefined,
  ): Promise<unknown> {
    // One controller per attempt, aborted by the timer or by the caller's signal; `timedOut` tells which.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onUserAbort = () => controller.abort();
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    let status: number;
    let responseHeaders: Record<string, string>;
    let text: string;
    try {
      const response = await this.#pool.request({ path, method: route.method, headers, body: body ?? null, signal: controller.signal });
      status = response.statusCode;
      responseHeaders = flattenHeaders(response.headers);
      text = await response.body.text();
    } catch (error) {
      if (userSignal?.aborted) throw abortedError(userSignal);
      if (timedOut) throw new TimeoutError(`${attemptLabel}: timed out after ${timeoutMs} ms`, { cause: error });
      throw networkError(error, attemptLabel);
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
    return readResponse(route, label, status, responseHeaders, text);
  }

  #assertOpen(): void {
    if (this.#closing.signal.aborted) throw closedError();
  }
}

/** The wait before the next attempt, or `undefined` when `error` must not be retried. */
function retryWait(error: unknown, attempt: number, maxRetryDelayMs: number): number | undefined {
  if (error instanceof ConnectionError) return retryDelay(attempt, undefined, maxRetryDelayMs);
  if (error instanceof FeedbackApiError && (error.status === 429 || error.status >= 500)) {
    return retryDelay(attempt, parseRetryAfter(error.headers['retry-after']), maxRetryDelayMs);
  }
  // A 409 with Retry-After: the first request with this Idempotency-Key is still running (say, the
  // one a timeout gave up on). Retrying with the same key gets its response once it is stored.
  if (error instanceof FeedbackApiError && error.status === 409 && error.headers['retry-after'] !== undefined) {
    return retryDelay(attempt, parseRetryAfter(error.headers['retry-after']), maxRetryDelayMs);
  }
  return undefined;
}

/** Turns a response into the checked success body, or throws the matching error. */
function readResponse(route: RouteDefinition, label: string, status: number, headers: Record<string, string>, text: string): unknown {
  let body: unknown = text === '' ? undefined : text;
  let isJson = false;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
      isJson = true;
    } catch {
      // Not JSON: an error status still maps to its class (a proxy's HTML 502 is still a 5xx).
    }
  }
  if (status >= 400) throw apiErrorFor({ status, body, headers });

  const schema = route.responses[status];
  if (!schema) {
    const expected = Object.keys(route.responses).join(' or ');
    throw new UnexpectedResponseError(`${label}: unexpected status ${status} (the contract answers ${expected})`, status, body);
  }
  if (!isJson) {
    const type = headers['content-type'] ?? 'none';
    throw new UnexpectedResponseError(`${label}: the ${status} response is not JSON (content-type: ${type}): ${snippet(text)}`, status, body);
  }
  const checked = schema.safeParse(body);
  if (!checked.success) {
    throw new UnexpectedResponseError(`${label}: the ${status} response breaks the contract: ${formatIssues(checked.error)}`, status, body);
  }
  return checked.data;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 80)}…` : flat);
}

/** Maps an error of undici (or of the socket under it) to the SDK's classes. */
function networkError(error: unknown, label: string): FeedbackError {
  if (error instanceof undiciErrors.ClientClosedError || error instanceof undiciErrors.ClientDestroyedError) return closedError();
  if (error instanceof undiciErrors.InvalidArgumentError || error instanceof undiciErrors.NotSupportedError) {
    return new FeedbackError(`${label}: invalid request: ${error.message}`, { cause: error });
  }
  if (
    error instanceof undiciErrors.ConnectTimeoutError ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError
  ) {
    return new TimeoutError(`${label}: timed out: ${messageOf(error)}`, { cause: error });
  }
  return new ConnectionError(`${label}: connection failed: ${messageOf(error)}`, { cause: error });
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

function closedError(): FeedbackError {
  return new FeedbackError('client is closed');
}

function abortedError(signal: AbortSignal): FeedbackError {
  return new FeedbackError('request aborted', { cause: signal.reason });
}

/** Fills `:name` segments with URL-encoded values, so an id can never change the path. */
function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') throw new FeedbackError(`${name} must be a non-empty string`);
    return encodeURIComponent(value);
  });
}

/** `?a=1&status=new,planned`: arrays joined by commas, `undefined` and empty arrays left out. */
function queryString(query: Record<string, QueryValue>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values = typeof value === 'string' || typeof value === 'number' ? [value] : value;
    if (values.length === 0) continue;
    parts.push(`${encodeURIComponent(name)}=${values.map((item) => encodeURIComponent(String(item))).join(',')}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Checks a time limit option: a finite number above 0.
 * @internal
 */
export function checkTimeout(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new FeedbackError(`${name} must be a number of milliseconds above 0, got ${String(value)}`);
  }
  return value;
}

/**
 * Checks a retry count option: a whole number, 0 or more.
 * @internal
 */
export function checkRetries(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new FeedbackError(`${name} must be a whole number, 0 or more, got ${String(value)}`);
  }
  return value;
}
