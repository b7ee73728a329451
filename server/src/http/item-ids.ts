import { ERROR_MESSAGES } from '@feedbackd/sdk/contract';
import { isUuid } from '../db/uuid.js';
import { AppError } from './errors.js';

/**
 * The id of a path, checked before any query: a malformed id cannot name an item, so it is the
 * same 404 as an unknown one (and never reaches PostgreSQL as a failing uuid cast).
 */
export function feedbackId(id: string): string {
  if (!isUuid(id)) throw feedbackNotFound();
  return id.toLowerCase();
}

/** Spec part 7: 404 "Feedback not found", for unknown, malformed and other projects' ids alike. */
export function feedbackNotFound(): AppError {
  return new AppError(404, ERROR_MESSAGES.feedbackNotFound);
}

/** A comment id of a path, checked like `feedbackId`: malformed is the same 404 as unknown. */
export function commentId(id: string): string {
  if (!isUuid(id)) throw commentNotFound();
  return id.toLowerCase();
}

/** 404 "Comment not found": no such comment on that item (unknown, malformed, or on another item). */
export function commentNotFound(): AppError {
  return new AppError(404, ERROR_MESSAGES.commentNotFound);
}

/**
 * True when a statement failed because the item it references was deleted while it ran (a delete
 * or a merge committed first): PostgreSQL's foreign_key_violation. Writers on an item that may be
 * gone answer 404 then, as if they had come a moment later, never 500.
 */
export function isItemGone(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}
