import { ERROR_MESSAGES, type HoldReason } from '@feedbackd/sdk/contract';
import { Forbidden } from '../errors.js';
import type { ModerationPolicy } from './policy.js';
import { hasLink } from './links.js';

/*
 * Moderation's one decision (docs/moderation.md): whether an end user's post waits for the team.
 * A submission asks it in domain/feedback/submissions.ts (submitOrHold), a comment in its route or form, with
 * the project's policy as their caches hold it (domain/moderation/policy.ts: the key cache, the
 * board's and the widget's projects), so deciding costs no round trip. A project that holds
 * nothing has no policy, and its posts do not ask.
 */

/**
 * Why an end user's post is held, or null when it goes out at once. `identified`: the post names
 * an end user. Team and secret-key posts never ask: they are never held.
 */
export function holdReason(policy: ModerationPolicy, identified: boolean, texts: ReadonlyArray<string | null | undefined>): HoldReason | null {
  if (policy.mode === 'all') return 'all';
  if (policy.mode === 'anonymous' && !identified) return 'anonymous';
  if (policy.holdLinks && texts.some((text) => text && hasLink(text))) return 'link';
  return null;
}

/** The refusal of a blocked author's post. */
export function postingBlocked(): Forbidden {
  return new Forbidden(ERROR_MESSAGES.postingBlocked);
}
