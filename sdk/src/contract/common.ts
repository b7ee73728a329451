import { z } from 'zod';

/**
 * A string field whose messages name the field: "<label> is required" when it is missing,
 * "<label> must be a string" when it has another JSON type.
 */
export function labelledString(label: string) {
  return z.string({
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a string`),
  });
}

/** An optional text field; `null` is accepted and means "no value". */
export function optionalText(label: string, maxLength: number) {
  return labelledString(label)
    .max(maxLength, { error: `${label} must be at most ${maxLength} characters` })
    .nullish();
}

/** Free-form key-value data attached to a user or an item (spec: "Additional key-value data"). */
export const MetadataSchema = z.record(z.string(), z.unknown(), {
  error: 'metadata must be a JSON object',
});

/** An ISO 8601 timestamp with milliseconds and a Z suffix, as every response carries it. */
export const TimestampSchema = z.iso.datetime({ precision: 3 });

/** The validation details of a 400 (spec part 7): form-level messages and messages per field. */
export const ValidationDetailsSchema = z.object({
  formErrors: z.array(z.string()),
  fieldErrors: z.record(z.string(), z.array(z.string())),
});

/** The body of every error response (spec part 7). */
export const ErrorBodySchema = z.object({
  error: z.string(),
  details: ValidationDetailsSchema.optional(),
});

export type Metadata = z.infer<typeof MetadataSchema>;
export type ValidationDetails = z.infer<typeof ValidationDetailsSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** The exact error texts of the spec, shared by the server that sends them and the clients that read them. */
export const ERROR_MESSAGES = {
  invalidInput: 'Invalid input',
  missingApiKey: 'Missing x-api-key header',
  invalidApiKey: 'Invalid API key',
  feedbackNotFound: 'Feedback not found',
  rateLimited: 'Too many requests, please slow down',
  internal: 'Internal server error',
  /**
   * Not in the spec: the caller's address sent too many unknown or revoked keys (429, like the
   * rate limit, but its own text, so that a valid key refused for its address's guesses is not
   * mistaken for a key over its budget).
   */
  failedAuthLimited: 'Too many failed authentication attempts from this address; try again later',
  /** Not in the spec: the database cannot be reached (503); the request may be retried. */
  serviceUnavailable: 'Service unavailable',
  /** Not in the spec: a public key called an operator endpoint (403). */
  secretKeyRequired: 'This operation requires a secret key',
  /** Not in the spec: the comment does not exist on that item (404). */
  commentNotFound: 'Comment not found',
  /** Not in the spec: no webhook endpoint of the caller's project has that id (404). */
  webhookNotFound: 'Webhook not found',
  /** Not in the spec: no delivery of the caller's project's endpoints has that id (404). */
  deliveryNotFound: 'Webhook delivery not found',
  /** Not in the spec: the project has no end user with that externalId (404; an export of someone never seen or erased). */
  endUserNotFound: 'End user not found',
  /** Not in the spec: no changelog entry of the caller's project has that id (404; for a public key, also one not yet published). */
  changelogNotFound: 'Changelog entry not found',
  /** Not in the spec: a public key asked for a team comment, an internal note or a pin (403). */
  teamCommentRequiresSecretKey: 'Team comments, internal notes and pins require a secret key',
  /** Not in the spec: an anonymous comment on a project that does not allow them (403; PATCH /api/v1/board `anonymousComments`). */
  anonymousCommentsOff: 'Anonymous comments are off for this project: give endUser',
  /** Not in the spec: a change to a comment by someone other than its author (403). */
  notCommentAuthor: 'Only the author of this comment can change it',
  /** Not in the spec: the author's comment was answered by the team, so it stays as it is (403). */
  commentAnswered: 'The team has replied to this comment: it can no longer be edited or deleted',
  /** Not in the spec: the team blocked this author when rejecting one of their posts (403; docs/moderation.md). */
  postingBlocked: 'You can no longer post to this project: the team blocked this author',
  /** Not in the spec: no block in force in the caller's project has that id (404: lifted already, expired, or never). */
  blockNotFound: 'Block not found',
  /**
   * Not in the spec: a public key edited or deleted an end user's comment without the end user's
   * signed token (403; docs/api.md, "Comments"): an externalId is published, so it proves nothing.
   */
  endUserTokenRequired: "A public key changes an end user's comment only with their signed token in the X-Feedback-User-Token header (or use a secret key)",
  /** Not in the spec: the project has no identity secret, so no end user's token can be checked (403). */
  endUserTokenNotTaken: 'This project takes no end-user tokens: create its identity secret (feedback board secret create), or use a secret key',
  /** Not in the spec: the end user's token is past its `exp` (403): sign a new one. */
  endUserTokenExpired: "The end user's token has expired: sign a new one",
  /** Not in the spec: the end user's token was spent by an earlier request (403): sign one per request. */
  endUserTokenUsed: "The end user's token has been used already: sign a new one for each request",
  /** Not in the spec: the end user's token is not one the project's identity secret signed for its board, or is malformed (403). */
  endUserTokenInvalid: "The end user's token is not valid",
  /** Not in the spec: `endUserId` names another end user than the token's `sub` (403). */
  endUserTokenMismatch: "The end user's token names another end user than endUserId",
} as const;
