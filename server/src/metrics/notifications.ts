import { Counter } from 'prom-client';
import { registry } from './registry.js';

/**
 * The notifications' mail (docs/notifications.md): notifications sent, failed after their last try,
 * or suppressed (their address refused for good). Counted in the process that serves, from what
 * the jobs' thread reports (jobs/background-jobs.ts).
 */
const mails = new Counter({
  name: 'feedback_notification_mails_total',
  help: 'Notifications whose mail was sent, failed after its last try, or suppressed (the address refused for good), by outcome',
  labelNames: ['outcome'],
  registers: [registry],
});
for (const outcome of ['sent', 'failed', 'suppressed']) mails.inc({ outcome }, 0);

/** Counts `count` notifications of one outcome. */
export function countMail(outcome: 'sent' | 'failed' | 'suppressed', count: number): void {
  mails.inc({ outcome }, count);
}
