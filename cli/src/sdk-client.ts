import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  FeedbackApiError,
  FeedbackClient,
  FeedbackError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
} from '@feedbackd/sdk';
import { ERROR_MESSAGES } from '@feedbackd/sdk/contract';
import { serverUrl, type ApiFlags } from './api-options.js';
import { wholeNumber } from './flag-values.js';
import { CliError, EXIT } from './exit-codes.js';

/** A client for the flags, checked before any request is made. */
export function createClient(flags: ApiFlags): FeedbackClient {
  const url = serverUrl(flags);
  const apiKey = flags.apiKey?.trim();
  if (!apiKey) throw new CliError('no API key: pass --api-key, set FEEDBACK_API_KEY or run `feedback login` (`feedback keys create` makes one)', EXIT.usage);
  const retries = wholeNumber(flags.retries, '--retries', { min: 0, max: 10 });
  try {
    return new FeedbackClient({ baseUrl: url, apiKey, maxRetries: retries });
  } catch (error) {
    // The SDK checks its options too; anything it refuses is a usage error here.
    if (error instanceof FeedbackError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
}

/**
 * Runs `action` with a client for the flags and always closes it, so that the process ends as
 * soon as the command is done. Errors of the SDK become CliErrors with their exit code.
 */
export async function withSdkClient<T>(flags: ApiFlags, action: (client: FeedbackClient) => Promise<T>): Promise<T> {
  const client = createClient(flags);
  try {
    return await action(client);
  } catch (error) {
    throw toCliError(error, serverUrl(flags));
  } finally {
    await client.close();
  }
}

/** How the CLI reports one class of SDK error: its exit code and the sentence it prints. */
interface ErrorRow<E extends FeedbackError> {
  type: new (...args: never[]) => E;
  exit: number;
  sentence(error: E, url: string): string;
}

const row = <E extends FeedbackError>(type: ErrorRow<E>['type'], exit: number, sentence: ErrorRow<E>['sentence']): ErrorRow<FeedbackError> =>
  ({ type, exit, sentence }) as unknown as ErrorRow<FeedbackError>;

/**
 * Every error of the SDK, as one clear sentence and an exit code: the API's `error` text with the
 * field messages of a 400, or what went wrong on the way to the server. The first row whose class
 * the error is an instance of wins, so a subclass comes before its parent (FeedbackApiError).
 */
/** The 403s that mean "use a secret key". */
const SECRET_KEY_REFUSALS = new Set<string>([ERROR_MESSAGES.secretKeyRequired, ERROR_MESSAGES.teamCommentRequiresSecretKey]);

const ERROR_ROWS: readonly ErrorRow<FeedbackError>[] = [
  row(BadRequestError, EXIT.usage, (error) => withDetails(error)),
  row(AuthenticationError, EXIT.auth, (error, url) => `${error.message} (the server at ${url} refused the key; check --api-key or FEEDBACK_API_KEY)`),
  // Only a refusal of the key's kind gets the hint; the conversation's other 403s (not the author,
  // answered by the team) say all there is to say.
  row(PermissionDeniedError, EXIT.auth, (error) =>
    SECRET_KEY_REFUSALS.has(error.message) ? `${error.message} (this command needs a secret key: \`feedback keys create --secret\` makes one)` : error.message,
  ),
  row(NotFoundError, EXIT.notFound, (error) => error.message),
  row(RateLimitError, EXIT.rateLimited, (error) => `${error.message} (rate limited by the server${error.retryAfter !== undefined ? `; try again in ${error.retryAfter} s` : ''})`),
  row(FeedbackApiError, EXIT.error, (error) => `${error.message} (HTTP ${error.status}${requestIdNote(error)})`),
  row(TimeoutError, EXIT.error, (error, url) => `the server at ${url} did not answer in time (${withoutOperation(error.message)})`),
  row(ConnectionError, EXIT.error, (error, url) => `could not reach the server at ${url} (${withoutOperation(error.message)}); is it running? Set the address with --url or FEEDBACK_URL`),
  row(UnexpectedResponseError, EXIT.error, (error, url) => `unexpected response from ${url}: ${error.message}`),
  row(FeedbackError, EXIT.error, (error) => error.message),
];

/** The CliError an error of the SDK becomes (ERROR_ROWS); anything else is returned as it is. */
export function toCliError(error: unknown, url: string): unknown {
  if (error instanceof CliError || !(error instanceof FeedbackError)) return error;
  const match = ERROR_ROWS.find((candidate) => error instanceof candidate.type)!;
  return new CliError(match.sentence(error, url), match.exit, error instanceof BadRequestError ? error.details : undefined);
}

/** "Invalid input: title: Title is required; type: Type must be one of: …" */
function withDetails(error: FeedbackApiError): string {
  const details = error.details;
  if (!details) return error.message;
  const messages = [
    ...details.formErrors,
    ...Object.entries(details.fieldErrors).flatMap(([field, list]) => list.map((message) => `${field}: ${message}`)),
  ];
  return messages.length === 0 ? error.message : `${error.message}: ${messages.join('; ')}`;
}

/** "feedback.list (GET /api/v1/feedback), attempt 3 of 3: connection failed: …" without the part before "connection failed". */
export function withoutOperation(message: string): string {
  return message.replace(/^[\w.]+ \([A-Z]+ [^)]*\)(, attempt \d+ of \d+)?: /, '');
}

function requestIdNote(error: FeedbackApiError): string {
  return error.requestId ? `, request id ${error.requestId}` : '';
}
