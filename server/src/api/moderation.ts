import { LinkifyIt } from 'linkify-it';
import { ERROR_MESSAGES, type HoldReason } from '@feedbackd/sdk/contract';
import type { Caller } from '../http/context.js';
import { AppError } from '../http/errors.js';

/*
 * Moderation's one decision (docs/moderation.md): whether an end user's post waits for the team.
 * The API's handlers and the board's forms both ask it, with the project's setting as their
 * caches hold it (the key cache, the board's projects), so deciding costs no round trip.
 */

/** A project's moderation setting (`feedback board moderation`), as the key cache holds it (http/context.ts). */
export type ModerationPolicy = Caller['moderation'];

/** Moderation off: what a project has until its operator turns it on. */
export const NO_MODERATION: ModerationPolicy = { mode: 'none', holdLinks: false };

// Bare domains (example.com) are links too: a spammer writes them so.
const links = new LinkifyIt({ fuzzyLink: true });

/**
 * Why an end user's post is held, or null when it goes out at once. `identified`: the post names
 * an end user. Team and secret-key posts never ask: they are never held.
 */
export function holdReason(policy: ModerationPolicy, identified: boolean, texts: ReadonlyArray<string | null | undefined>): HoldReason | null {
  if (policy.mode === 'all') return 'all';
  if (policy.mode === 'anonymous' && !identified) return 'anonymous';
  if (policy.holdLinks && texts.some((text) => text && links.test(text))) return 'link';
  return null;
}

/** The refusal of a blocked author's post (403, the contract's error shape). */
export function postingBlocked(): AppError {
  return new AppError(403, ERROR_MESSAGES.postingBlocked);
}
