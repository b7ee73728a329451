import { ValidationDetailsSchema, type ValidationDetails } from './contract/common.js';
import { parseRetryAfter } from './retry.js';

/**
 * The root of every error the SDK throws. Catch this one class to handle any failure of a call:
 * a bad option, a closed client, an error answer of the API, a network failure or a response that
 * breaks the contract.
 */
export class FeedbackError extends Error {
  static {
    this.prototype.name = 'FeedbackError';
  }

  /**
   * @param message What went wrong.
   * @param options `cause`: the underlying error, when there is one.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** What an API error is built from: the status, the response headers and the (parsed) body. */
export interface ApiErrorInit {
  /** The HTTP status of the response. */
  status: number;
  /** The response body: the parsed JSON, or the raw text when it was not JSON. */
  body?: unknown;
  /** The response headers, names in lower case. */
  headers?: Record<string, string>;
}

/**
 * The API answered with an error status (4xx or 5xx). `message` is the `error` text of the body
 * (spec part 7), or "HTTP <status>" when the body has none. Statuses with a class of their own
 * (400, 401, 403, 404, 429, 5xx) are thrown as that subclass; other 4xx (405, 409, 413, 415) as this class.
 */
export class FeedbackApiError extends FeedbackError {
  static {
    this.prototype.name = 'FeedbackApiError';
  }

  /** The HTTP status of the response. */
  readonly status: number;
  /** The validation details of a 400 "Invalid input": `formErrors` and `fieldErrors` per field. */
  readonly details?: ValidationDetails;
  /** The response headers, names in lower case. */
  readonly headers: Record<string, string>;
  /** The server's `X-Request-Id` of the failed request: quote it when you report a problem. */
  readonly requestId?: string;
  /** The response body: the parsed JSON, or the raw text when it was not JSON. */
  readonly body: unknown;

  /** Builds the error from a response; `message`, `details` and `requestId` are read from it. */
  constructor(init: ApiErrorInit) {
    const error = errorField(init.body);
    super(error ?? `HTTP ${init.status}`);
    this.status = init.status;
    this.body = init.body;
    this.headers = init.headers ?? {};
    const details = detailsField(init.body);
    if (details !== undefined) this.details = details;
    const requestId = this.headers['x-request-id'];
    if (requestId !== undefined) this.requestId = requestId;
  }
}

/** 400: the input was invalid. `details.fieldErrors` says which field, and why. Never retried. */
export class BadRequestError extends FeedbackApiError {
  static {
    this.prototype.name = 'BadRequestError';
  }
}

/** 401: the `x-api-key` header was missing, or the key is not valid (or was revoked). Never retried. */
export class AuthenticationError extends FeedbackApiError {
  static {
    this.prototype.name = 'AuthenticationError';
  }
}

/**
 * 403: the key is valid but may not do this: a public key (`pk_`) called an operator endpoint,
 * which needs a secret key (`sk_`). Never retried.
 */
export class PermissionDeniedError extends FeedbackApiError {
  static {
    this.prototype.name = 'PermissionDeniedError';
  }
}

/** 404: the feedback item (or the comment) does not exist, or belongs to another project. Never retried. */
export class NotFoundError extends FeedbackApiError {
  static {
    this.prototype.name = 'NotFoundError';
  }
}

/**
 * 429: the API key spent its request budget (100 per minute by default). Retried when the server's
 * `Retry-After` fits within `maxRetryDelayMs`; thrown once retries are spent or the wait is longer.
 */
export class RateLimitError extends FeedbackApiError {
  static {
    this.prototype.name = 'RateLimitError';
  }

  /** Seconds to wait before the next request, from the `Retry-After` header (when present). */
  readonly retryAfter?: number;

  /** Builds the error from a response; `retryAfter` is read from its `Retry-After` header. */
  constructor(init: ApiErrorInit) {
    super(init);
    const waitMs = parseRetryAfter(this.headers['retry-after']);
    if (waitMs !== undefined) this.retryAfter = Math.ceil(waitMs / 1000);
  }
}

/** 5xx: the server (or a proxy in front of it) failed. Retried. */
export class InternalServerError extends FeedbackApiError {
  static {
    this.prototype.name = 'InternalServerError';
  }
}

/**
 * No response arrived: the connection was refused or reset, the host was not found, or the socket
 * closed before the answer. `cause` holds the underlying error. Retried.
 */
export class ConnectionError extends FeedbackError {
  static {
    this.prototype.name = 'ConnectionError';
  }
}

/** An attempt took longer than `timeoutMs` (connecting, waiting and reading the body together). Retried. */
export class TimeoutError extends ConnectionError {
  static {
    this.prototype.name = 'TimeoutError';
  }
}

/**
 * A successful status whose body is not JSON, or JSON that breaks the contract (checked with the
 * contract's response schema for that status), or a status the contract does not list. The message
 * names the operation and the first problems found. Never retried.
 */
export class UnexpectedResponseError extends FeedbackError {
  static {
    this.prototype.name = 'UnexpectedResponseError';
  }

  /** The HTTP status of the response. */
  readonly status: number;
  /** The response body: the parsed JSON, or the raw text when it was not JSON. */
  readonly body: unknown;

  /**
   * @param message What is wrong, naming the operation.
   * @param status The HTTP status of the response.
   * @param body The parsed JSON, or the raw text when it was not JSON.
   */
  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** The error class of an error status: one per status family, the base class for the other 4xx. */
export function apiErrorFor(init: ApiErrorInit): FeedbackApiError {
  const { status } = init;
  if (status === 400) return new BadRequestError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionDeniedError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 429) return new RateLimitError(init);
  if (status >= 500) return new InternalServerError(init);
  return new FeedbackApiError(init);
}

function errorField(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  return typeof error === 'string' && error !== '' ? error : undefined;
}

function detailsField(body: unknown): ValidationDetails | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const parsed = ValidationDetailsSchema.safeParse((body as { details?: unknown }).details);
  return parsed.success ? parsed.data : undefined;
}
