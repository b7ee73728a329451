import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  FeedbackApiError,
  FeedbackClient,
  FeedbackError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
} from '@feedbackd/sdk';
import { serverUrl, wholeNumber, type ApiFlags } from './api-client.js';
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

/**
 * One clear sentence and an exit code for every error of the SDK: the API's `error` text with the
 * field messages of a 400, or what went wrong on the way to the server.
 */
export function toCliError(error: unknown, url: string): unknown {
  if (error instanceof CliError || !(error instanceof FeedbackError)) return error;
  if (error instanceof BadRequestError) return new CliError(withDetails(error), EXIT.usage, error.details);
  if (error instanceof AuthenticationError) {
    return new CliError(`${error.message} (the server at ${url} refused the key; check --api-key or FEEDBACK_API_KEY)`, EXIT.auth);
  }
  if (error instanceof PermissionDeniedError) {
    return new CliError(`${error.message} (this command needs a secret key: \`feedback keys create --secret\` makes one)`, EXIT.auth);
  }
  if (error instanceof NotFoundError) return new CliError(error.message, EXIT.notFound);
  if (error instanceof RateLimitError) {
    const wait = error.retryAfter !== undefined ? `; try again in ${error.retryAfter} s` : '';
    return new CliError(`${error.message} (rate limited by the server${wait})`, EXIT.rateLimited);
  }
  if (error instanceof InternalServerError) return new CliError(`${error.message} (HTTP ${error.status}${requestIdNote(error)})`, EXIT.error);
  if (error instanceof FeedbackApiError) return new CliError(`${error.message} (HTTP ${error.status}${requestIdNote(error)})`, EXIT.error);
  if (error instanceof TimeoutError) return new CliError(`the server at ${url} did not answer in time (${withoutOperation(error.message)})`, EXIT.error);
  if (error instanceof ConnectionError) {
    return new CliError(
      `could not reach the server at ${url} (${withoutOperation(error.message)}); is it running? Set the address with --url or FEEDBACK_URL`,
      EXIT.error,
    );
  }
  if (error instanceof UnexpectedResponseError) return new CliError(`unexpected response from ${url}: ${error.message}`, EXIT.error);
  return new CliError(error.message, EXIT.error);
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
function withoutOperation(message: string): string {
  return message.replace(/^[\w.]+ \([A-Z]+ [^)]*\)(, attempt \d+ of \d+)?: /, '');
}

function requestIdNote(error: FeedbackApiError): string {
  return error.requestId ? `, request id ${error.requestId}` : '';
}
