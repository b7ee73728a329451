import { Counter } from 'prom-client';
import { recording, registry } from './registry.js';

/** Which form refused a post: the board's comment (or reply) or new item, or the widget's new item. */
export type GuardedForm = 'comment' | 'submit' | 'widget';

/**
 * Why the board or the widget refused a form as spam or flooding (web/kit/form-guard.ts,
 * web/kit/guards.ts): its honeypot field was filled, it was sent sooner after it was shown than a
 * person types, its signed stamp was missing, forged, another form's or visitor's, or too old, its
 * stamp was spent by an earlier post, or the address spent its budget of comments.
 */
export type FormRefusalReason = 'honeypot' | 'too_fast' | 'bad_stamp' | 'spent_stamp' | 'rate_limit';

const REASONS: readonly FormRefusalReason[] = ['honeypot', 'too_fast', 'bad_stamp', 'spent_stamp', 'rate_limit'];
const FORMS: readonly GuardedForm[] = ['comment', 'submit', 'widget'];

const refusals = new Counter({
  name: 'feedback_board_form_refusals_total',
  help: 'Board and widget forms refused as spam or flooding, by form (comment, submit, widget) and reason: honeypot (the hidden field was filled), too_fast (sent sooner than a person fills it), bad_stamp (its signed stamp missing, forged, for another form or visitor, or expired), spent_stamp (its stamp already used by a post), rate_limit (the address spent its budget of comments)',
  labelNames: ['form', 'reason'],
  registers: [registry],
});

// Every series exists from the start, at 0: a rate() over a series that appears only at the first refusal misses it.
for (const form of FORMS) for (const reason of REASONS) refusals.labels(form, reason).inc(0);

export function countFormRefusal(form: GuardedForm, reason: FormRefusalReason): void {
  if (recording) refusals.labels(form, reason).inc();
}
