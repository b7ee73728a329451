import { Counter } from 'prom-client';
import { recording, registry } from './registry.js';

/** Which of the board's forms refused a post: a comment (or a reply, or an edit) or a new item. */
export type GuardedForm = 'comment' | 'submit';

/**
 * Why the board refused a form as spam or flooding (web/kit/form-guard.ts, web/kit/guards.ts): its
 * honeypot field was filled, it was sent sooner after it was shown than a person types, its signed
 * timestamp was missing, forged or too old, or the address spent its budget of comments.
 */
export type FormRefusalReason = 'honeypot' | 'too_fast' | 'bad_stamp' | 'rate_limit';

const REASONS: readonly FormRefusalReason[] = ['honeypot', 'too_fast', 'bad_stamp', 'rate_limit'];
const FORMS: readonly GuardedForm[] = ['comment', 'submit'];

const refusals = new Counter({
  name: 'feedback_board_form_refusals_total',
  help: 'Board forms refused as spam or flooding, by form (comment, submit) and reason: honeypot (the hidden field was filled), too_fast (sent sooner than a person fills it), bad_stamp (its signed timestamp missing, forged or expired), rate_limit (the address spent its budget of comments)',
  labelNames: ['form', 'reason'],
  registers: [registry],
});

// Every series exists from the start, at 0: a rate() over a series that appears only at the first refusal misses it.
for (const form of FORMS) for (const reason of REASONS) refusals.labels(form, reason).inc(0);

export function countFormRefusal(form: GuardedForm, reason: FormRefusalReason): void {
  if (recording) refusals.labels(form, reason).inc();
}
