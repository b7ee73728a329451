import type { ModerationMode } from '@feedbackd/sdk/contract';

/*
 * A project's moderation setting as the caches keep it: the key cache (access.ts) here, the
 * board's and the widget's projects above. It sits on the http floor because the key cache is
 * the lowest that needs it; the decision it feeds is domain/moderation/hold-reason.ts's holdReason.
 */

/** A project's moderation setting (`feedback board moderation`, docs/moderation.md) where it holds something. */
export interface ModerationPolicy {
  mode: ModerationMode;
  holdLinks: boolean;
}

/**
 * The project's stored columns (`moderation`, `moderation_hold_links`) as a policy, or null where
 * the project holds nothing (mode `none`, links not held): a post of such a project then goes
 * out without asking moderation anything.
 */
export function moderationPolicy(mode: ModerationMode, holdLinks: boolean): ModerationPolicy | null {
  return mode === 'none' && !holdLinks ? null : { mode, holdLinks };
}
