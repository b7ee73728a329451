import type { FeedbackClient } from '@feedbackd/sdk';
import type { ApiFlags } from './api-options.js';

/**
 * Runs `action` with a client for the flags and always closes it; SDK errors become CliErrors
 * with their exit code (sdk-client.ts, loaded here on first use, so that a command that never
 * calls the API never loads undici and zod).
 */
/**
 * The time limit of one attempt of a call that tells subscribers (a status change, a merge, a team
 * reply, a changelog entry published): the server records every notification before it answers,
 * and an item with 100,000 subscribers takes seconds, past the SDK's default of 10 s
 * (docs/notifications.md). A CLI user would otherwise see a timeout for a change that was made.
 */
export const NOTIFYING_CALL = { timeoutMs: 300_000 } as const;

export async function withClient<T>(flags: ApiFlags, action: (client: FeedbackClient) => Promise<T>): Promise<T> {
  const { withSdkClient } = await import('./sdk-client.js');
  return withSdkClient(flags, action);
}
