import type { z } from 'zod';

/**
 * The first few zod issues as "path: message"; enough to see what the sender got wrong. Shared by
 * the client's response check and the webhook receiver, in a module of its own so that the
 * receiver does not load the client's transport (and undici with it).
 */
export function formatIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.');
    return `${path === '' ? '(root)' : path}: ${issue.message}`;
  });
  const more = error.issues.length - shown.length;
  return shown.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}
