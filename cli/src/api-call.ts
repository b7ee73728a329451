import type { FeedbackClient } from '@feedbackd/sdk';
import type { ApiFlags } from './api-options.js';

/**
 * Runs `action` with a client for the flags and always closes it; SDK errors become CliErrors
 * with their exit code (sdk-client.ts, loaded here on first use, so that a command that never
 * calls the API never loads undici and zod).
 */
export async function withClient<T>(flags: ApiFlags, action: (client: FeedbackClient) => Promise<T>): Promise<T> {
  const { withSdkClient } = await import('./sdk-client.js');
  return withSdkClient(flags, action);
}
