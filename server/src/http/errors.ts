import { z } from 'zod';
import { ERROR_MESSAGES, type ErrorBody, type ValidationDetails } from '@feedbackd/sdk/contract';
import { DomainError, Forbidden, InvalidInput, NotFound } from '../domain/errors.js';

/**
 * An expected failure with its HTTP status and the spec's error text. Handlers throw these (or let
 * zod and body-parser errors bubble); only the error handler turns them into responses.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: ValidationDetails,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  static invalidInput(details: ValidationDetails): AppError {
    return new AppError(400, ERROR_MESSAGES.invalidInput, details);
  }

  static invalidInputMessage(message: string): AppError {
    return AppError.invalidInput({ formErrors: [message], fieldErrors: {} });
  }
}

/** The status of each kind of the domain's refusals (domain/errors.ts): the one place they meet HTTP. */
const DOMAIN_STATUSES = new Map<abstract new (...args: never[]) => DomainError, number>([
  [NotFound, 404],
  [Forbidden, 403],
  [InvalidInput, 400],
]);

/** The status a domain refusal is answered with. */
export function domainStatus(error: DomainError): number {
  const status = DOMAIN_STATUSES.get(error.constructor as abstract new (...args: never[]) => DomainError);
  if (status === undefined) throw new Error(`${error.name} has no status in http/errors.ts`);
  return status;
}

/** A failure as it goes on the wire. `unexpected` means a bug: log its stack, show nothing of it. */
export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  unexpected: boolean;
  /** The database could not be reached: not a bug, but worth a warning in the log. */
  databaseDown?: boolean;
}

/** Connection-level error codes: the network's, and PostgreSQL's (class 08, shutdown, too many connections). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', '57P01', '57P02', '57P03', '53300']);
/**
 * node-postgres reports a lost or unobtainable connection with these messages and no code; its
 * pool (under the ORM, which runs the transactions of writes sent with an Idempotency-Key) says it
 * found no free connection in time.
 */
const UNREACHABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated due to connection timeout/i;

/**
 * True when `error` says the database cannot be reached right now (down, restarting, refusing
 * connections), as opposed to a statement that failed: the caller gets 503 and may retry.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)) return true;
  // Node's happy-eyeballs connect fails with an AggregateError of one error per address.
  return Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable);
}

/** The 404 of a path no route answers (http/edge.ts), and of `/metrics` on the API's port (keyless-routes.ts). */
export function pathNotFound(method: string, path: string): AppError {
  return new AppError(404, `Not found: ${method} ${path}`);
}

/** What a request whose body never arrived whole is told (when it can still be told anything). */
export const BODY_CUT_SHORT = 'The request body was cut short';

/** What a body declared in a charset other than UTF-8 is told (http/body.ts). */
export const UNSUPPORTED_CHARSET = 'Unsupported charset: send JSON in UTF-8';

/** Errors thrown by raw-body / co-body (inside koa-bodyparser), recognised by their `type`. */
const BODY_ERRORS: Record<string, (limit: unknown) => Omit<ErrorResponse, 'unexpected' | 'headers'>> = {
  'request.aborted': () => ({ status: 400, body: invalidInputBody(BODY_CUT_SHORT) }),
  'request.size.invalid': () => ({ status: 400, body: invalidInputBody('The request body does not match its Content-Length') }),
  'entity.too.large': (limit) => ({ status: 413, body: { error: `Request body too large: the limit is ${formatBytes(limit)}` } }),
  'encoding.unsupported': () => ({ status: 415, body: { error: 'Unsupported Content-Encoding' } }),
  'charset.unsupported': () => ({ status: 415, body: { error: UNSUPPORTED_CHARSET } }),
};

/** The one status table: every error the server can meet, mapped to the spec's JSON error shape. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof AppError) {
    return { status: error.status, body: withDetails(error.message, error.details), headers: error.headers, unexpected: false };
  }
  if (error instanceof DomainError) {
    return { status: domainStatus(error), body: withDetails(error.message, error.details), headers: {}, unexpected: false };
  }
  if (error instanceof z.ZodError) {
    return { status: 400, body: withDetails(ERROR_MESSAGES.invalidInput, toValidationDetails(error)), headers: {}, unexpected: false };
  }
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    type?: unknown;
    limit?: unknown;
    status?: unknown;
    expose?: unknown;
    message?: unknown;
    headers?: unknown;
  };
  const bodyError = typeof fields.type === 'string' ? BODY_ERRORS[fields.type] : undefined;
  // First: a client that hung up mid-body is an ECONNRESET too, but not the database's.
  if (bodyError) return { ...bodyError(fields.limit), headers: {}, unexpected: false };
  if (isDatabaseUnavailable(error)) {
    return { status: 503, body: { error: ERROR_MESSAGES.serviceUnavailable }, headers: { 'Retry-After': '1' }, unexpected: false, databaseDown: true };
  }
  // A body sent with a Content-Encoding it does not decompress as: zlib marks its errors Z_*,
  // Brotli ERR__ERROR_* ("Decompression failed").
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_'))) {
    return { status: 400, body: invalidInputBody('The request body does not decompress as its Content-Encoding says'), headers: {}, unexpected: false };
  }
  // http-errors raised by Koa or the router (405 Method Not Allowed, ...): their message is meant for clients.
  if (typeof fields.status === 'number' && fields.status >= 400 && fields.status < 500 && fields.expose === true) {
    const headers = isStringRecord(fields.headers) ? fields.headers : {};
    return { status: fields.status, body: { error: String(fields.message) }, headers, unexpected: false };
  }
  // A 4xx that its thrower did not mean to show (inflation's "Unsupported Content-Encoding" has a
  // status but no `expose`): still the client's fault, answered with a message of our own.
  if (typeof fields.status === 'number' && fields.status >= 400 && fields.status < 500) {
    return { ...unexposedClientError(fields.status, String(fields.message)), headers: {}, unexpected: false };
  }
  return { status: 500, body: { error: ERROR_MESSAGES.internal }, headers: {}, unexpected: true };
}

function unexposedClientError(status: number, message: string): Omit<ErrorResponse, 'unexpected' | 'headers'> {
  if (status === 415 && /content-encoding/i.test(message)) return { status, body: { error: 'Unsupported Content-Encoding' } };
  if (status === 413) return { status, body: { error: 'Request body too large' } };
  if (status === 415) return { status, body: { error: 'Unsupported Media Type' } };
  return { status: 400, body: invalidInputBody('The request could not be read') };
}

/** zod's flattened error in the spec's shape: `formErrors` and `fieldErrors` keyed by top-level field. */
export function toValidationDetails(error: z.ZodError): ValidationDetails {
  const flat = z.flattenError(error);
  const fieldErrors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(flat.fieldErrors as Record<string, string[] | undefined>)) {
    if (messages) fieldErrors[field] = messages;
  }
  return { formErrors: flat.formErrors, fieldErrors };
}

function invalidInputBody(formError: string): ErrorBody {
  return withDetails(ERROR_MESSAGES.invalidInput, { formErrors: [formError], fieldErrors: {} });
}

function withDetails(error: string, details: ValidationDetails | undefined): ErrorBody {
  return details ? { error, details } : { error };
}

function formatBytes(limit: unknown): string {
  if (typeof limit !== 'number') return 'exceeded';
  return limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MB` : `${limit} bytes`;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string');
}
