import { ERROR_MESSAGES, type ValidationDetails } from '@feedbackd/sdk/contract';

/*
 * What the product refuses, typed by kind and carrying the contract's error text: the domain
 * throws these and knows no status; http/errors.ts maps each kind to its status in one table, and
 * the pages that call the domain read the kind, not a number.
 */

/** A refusal of the domain: the contract's error text, and for invalid input the spec's details. */
export abstract class DomainError extends Error {
  constructor(
    message: string,
    readonly details?: ValidationDetails,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Nothing of that kind has that id in the caller's project (or the caller may not see it). */
export class NotFound extends DomainError {}

/** The caller may not do this (a public key's limits, a blocked author, a comment not theirs). */
export class Forbidden extends DomainError {}

/** The input is well-formed but does not fit (a parent of another item, a pin where none can be). */
export class InvalidInput extends DomainError {
  constructor(details: ValidationDetails) {
    super(ERROR_MESSAGES.invalidInput, details);
  }

  /** One problem with one field. */
  static field(field: string, message: string): InvalidInput {
    return new InvalidInput({ formErrors: [], fieldErrors: { [field]: [message] } });
  }
}

// A path's ids are checked by http/mount.ts before any handler runs (a malformed id is the same
// 404 as an unknown one); these are the answers for ids that name nothing.

/** Spec part 7: "Feedback not found", for unknown, malformed and other projects' ids alike. */
export function feedbackNotFound(): NotFound {
  return new NotFound(ERROR_MESSAGES.feedbackNotFound);
}

/** "Comment not found": no such comment on that item (unknown, malformed, or on another item). */
export function commentNotFound(): NotFound {
  return new NotFound(ERROR_MESSAGES.commentNotFound);
}

/** "Webhook not found": no webhook endpoint of the caller's project has that id. */
export function webhookNotFound(): NotFound {
  return new NotFound(ERROR_MESSAGES.webhookNotFound);
}

/** "Webhook delivery not found": no delivery to an endpoint of the caller's project has that id. */
export function deliveryNotFound(): NotFound {
  return new NotFound(ERROR_MESSAGES.deliveryNotFound);
}

/** "Changelog entry not found": no entry of the caller's project has that id (or, for a public key, none published). */
export function changelogNotFound(): NotFound {
  return new NotFound(ERROR_MESSAGES.changelogNotFound);
}

/** "End user not found": the caller's project holds no end user with that externalId. */
export function endUserNotFound(): NotFound {
  return new NotFound(ERROR_MESSAGES.endUserNotFound);
}

/** "Block not found": no block in force of the caller's project has that id (lifted already, expired, or never). */
export function blockNotFound(): NotFound {
  return new NotFound(ERROR_MESSAGES.blockNotFound);
}

/**
 * True when a statement failed because the item it references was deleted while it ran (a delete
 * or a merge committed first): PostgreSQL's foreign_key_violation. Writers on an item that may be
 * gone answer "not found" then, as if they had come a moment later, never a failure of the server.
 */
export function isItemGone(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}
