import { ERROR_MESSAGES } from '@feedbackd/sdk/contract';
import { AppError } from './errors.js';

// A path's ids are checked by mount.ts before any handler runs (a malformed id is the same 404 as
// an unknown one); these are the answers for ids that name nothing.

/** Spec part 7: 404 "Feedback not found", for unknown, malformed and other projects' ids alike. */
export function feedbackNotFound(): AppError {
  return new AppError(404, ERROR_MESSAGES.feedbackNotFound);
}

/** 404 "Comment not found": no such comment on that item (unknown, malformed, or on another item). */
export function commentNotFound(): AppError {
  return new AppError(404, ERROR_MESSAGES.commentNotFound);
}

/** 404 "Webhook not found": no webhook endpoint of the caller's project has that id. */
export function webhookNotFound(): AppError {
  return new AppError(404, ERROR_MESSAGES.webhookNotFound);
}

/** 404 "Webhook delivery not found": no delivery to an endpoint of the caller's project has that id. */
export function deliveryNotFound(): AppError {
  return new AppError(404, ERROR_MESSAGES.deliveryNotFound);
}

/** 404 "Changelog entry not found": no entry of the caller's project has that id (or, for a public key, none published). */
export function changelogNotFound(): AppError {
  return new AppError(404, ERROR_MESSAGES.changelogNotFound);
}

/** 404 "End user not found": the caller's project holds no end user with that externalId. */
export function endUserNotFound(): AppError {
  return new AppError(404, ERROR_MESSAGES.endUserNotFound);
}

/** 404 "Block not found": no block in force of the caller's project has that id (lifted already, expired, or never). */
export function blockNotFound(): AppError {
  return new AppError(404, ERROR_MESSAGES.blockNotFound);
}

/**
 * True when a statement failed because the item it references was deleted while it ran (a delete
 * or a merge committed first): PostgreSQL's foreign_key_violation. Writers on an item that may be
 * gone answer 404 then, as if they had come a moment later, never 500.
 */
export function isItemGone(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}
