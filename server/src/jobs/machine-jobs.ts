import type { SqlPool } from '../db/pool.js';
import type { Logger } from '../logger.js';
import { deleteExpiredKeys } from '../db/idempotency-keys.js';
import { PRUNE_LOG } from '../delivery/webhooks/deliveries.sql.js';
import { PRUNE_LISTENERS } from '../delivery/webhooks/listeners.sql.js';
import { SWEEP_SPENT_TOKENS } from '../domain/people/visitor-tokens.sql.js';
import { PRUNE_LINKS, PRUNE_SESSIONS } from '../domain/team-sessions/team-sessions.sql.js';
import { PRUNE_EXPIRED_BLOCKS } from '../domain/moderation/posting-blocks.sql.js';
import { webhookSender } from '../delivery/webhooks/sender.js';
import { ANNOUNCE_DUE } from '../domain/changelog/changelog.sql.js';
import type { MailSender, MailSettings } from '../delivery/mail/mail-sender.js';
import { PRUNE_NOTIFICATIONS } from '../domain/notifications/log.sql.js';
import { RELEASE_DUE, RELEASES_PER_STATEMENT } from '../domain/notifications/holds.sql.js';
import { runPeriodically, type RunningJobs } from './periodic.js';

/** How often expired idempotency keys are deleted: they expire after 24 hours, so this is plenty. */
export const IDEMPOTENCY_SWEEP_EVERY_MS = 10 * 60_000;
/** How often the webhook sender looks for due deliveries: a new event leaves within about this long. */
export const WEBHOOK_POLL_EVERY_MS = 500;
/** How often the webhook log is pruned of what is older than its keeping period, and of listeners gone for an hour. */
export const WEBHOOK_PRUNE_EVERY_MS = 60 * 60_000;
/**
 * How often used-up team sign-in links and long-dead team sessions (domain/team-sessions/team-sessions.sql.ts), the
 * board's spent visitor tokens and form stamps past their expiry (domain/people/visitor-tokens.sql.ts), and
 * moderation's blocks that have ended (domain/moderation/posting-blocks.sql.ts), are deleted.
 */
export const SIGN_IN_SWEEP_EVERY_MS = 60 * 60_000;
/**
 * How often scheduled changelog entries whose time has come are announced (`changelog.published`):
 * readers already show them from their time on, so this bounds only the event's lag. One indexed
 * look at the few unannounced entries (the partial index of Migration0020_changelog).
 */
export const CHANGELOG_SWEEP_EVERY_MS = 1_000;
/** How often the mail sender looks for recipients whose window has passed (delivery/mail/mail-sender.ts). */
export const MAIL_POLL_EVERY_MS = 1_000;
/**
 * How often held notifications whose time has come are released (domain/notifications/holds.sql.ts): one look
 * at the index of the few holds, so a held change's events leave within about this long of it.
 */
export const HOLD_RELEASE_EVERY_MS = 1_000;

export interface MachineJobOptions {
  /** Webhook targets may be on loopback and private networks. */
  webhooksAllowPrivate: boolean;
  /** The webhook sender's pace: attempts a second at most (`serve --webhooks-per-second`). */
  webhooksPerSecond?: number;
  /** The notifications' mail (`serve --smtp-url`); absent, no mail is sent and notifications wait in the outbox. */
  mail?: (MailSettings & { serverSecret: string }) | undefined;
  /** How long the team's bulk changes hold their notifications, in seconds (domain/notifications/holds.sql.ts, notifyHoldSeconds). */
  notifyHoldSeconds: number;
}

/** An outcome of the mail, for the serving process's metrics. */
export type MailOutcome = (outcome: 'sent' | 'failed' | 'suppressed', count: number) => void;

/**
 * The jobs that run once per machine, outside requests: in `feedback serve`'s one process, or in
 * the primary of a cluster (never in each worker, which would repeat them N times): the idempotency
 * sweep and the webhook sender (delivery/webhooks/sender.ts), whose claims also keep several machines from
 * sending one attempt twice. `onWebhookChange` is told when a job wrote what a waiting webhook
 * pull may want (delivery/webhooks/wake-ups.ts): a fan-out, a changelog entry announced.
 */
export function startMachineJobs(sql: Pick<SqlPool, 'query'>, logger: Logger, options: MachineJobOptions, onMailOutcome?: MailOutcome, onWebhookChange?: () => void): RunningJobs {
  const webhooks = webhookSender({ sql, logger, allowPrivate: options.webhooksAllowPrivate, perSecond: options.webhooksPerSecond, onFannedOut: onWebhookChange });
  const { mail } = options;
  // Loaded on the first run, and only with a mail server: nodemailer and the catalogues would
  // otherwise slow every start of the jobs' thread.
  let mails: MailSender | undefined;
  const sender = async (settings: NonNullable<MachineJobOptions['mail']>) =>
    (mails ??= (await import('../delivery/mail/mail-sender.js')).mailSender({ ...settings, sql, logger, serverSecret: Buffer.from(settings.serverSecret, 'base64url'), onOutcome: onMailOutcome }));
  const running = runPeriodically(
    [
      ...(mail
        ? [
            {
              name: 'mail sender',
              everyMs: MAIL_POLL_EVERY_MS,
              quiet: true,
              run: async (stopping: AbortSignal) => ({ messages: await (await sender(mail)).sendDue(stopping) }),
            },
          ]
        : []),
      {
        name: 'idempotency key sweep',
        everyMs: IDEMPOTENCY_SWEEP_EVERY_MS,
        run: async () => ({ deleted: await deleteExpiredKeys(sql) }),
      },
      {
        name: 'webhook sender',
        everyMs: WEBHOOK_POLL_EVERY_MS,
        quiet: true,
        run: async (stopping) => ({ attempts: await webhooks.sendDue(stopping) }),
      },
      {
        name: 'notification holds',
        everyMs: HOLD_RELEASE_EVERY_MS,
        quiet: true,
        run: async (stopping) => {
          let released = 0;
          for (;;) {
            const [row] = await sql.query<{ released: number }>('', RELEASE_DUE, [null, options.notifyHoldSeconds]);
            released += row!.released;
            // What is left waits for the next turn (or the next start): a hold kept longer only delays its news.
            if (row!.released < RELEASES_PER_STATEMENT || stopping.aborted) return { released };
          }
        },
      },
      {
        name: 'changelog announcements',
        everyMs: CHANGELOG_SWEEP_EVERY_MS,
        quiet: true,
        run: async () => {
          const announced = (await sql.query('', ANNOUNCE_DUE, [null])).length;
          // Their `changelog.published` events wait in the outbox: a waiting pull may want them.
          if (announced > 0) onWebhookChange?.();
          return { announced };
        },
      },
      {
        name: 'webhook log pruning',
        everyMs: WEBHOOK_PRUNE_EVERY_MS,
        run: async () => {
          // Listeners first: the pending deliveries of one gone for an hour no longer keep their events.
          const listeners = (await sql.query('', `${PRUNE_LISTENERS} returning 1`, [])).length;
          const events = (await sql.query('', `${PRUNE_LOG} returning 1`, [])).length;
          // The notifications' log ages out with the webhook log, on the same turn.
          return { listeners, events, notifications: (await sql.query('', `${PRUNE_NOTIFICATIONS} returning 1`, [])).length };
        },
      },
      {
        name: 'sign-in sweep',
        everyMs: SIGN_IN_SWEEP_EVERY_MS,
        run: async () => ({
          links: (await sql.query('', `${PRUNE_LINKS} returning 1`, [])).length,
          sessions: (await sql.query('', `${PRUNE_SESSIONS} returning 1`, [])).length,
          // The board's spent tokens and form stamps past their expiry could not be used again anyway.
          boardTokens: (await sql.query('', `${SWEEP_SPENT_TOKENS} returning 1`, [])).length,
          // Moderation's blocks that have ended stop nobody already (domain/moderation/posting-blocks.sql.ts): no address is kept longer.
          expiredBlocks: (await sql.query('', `${PRUNE_EXPIRED_BLOCKS} returning 1`, [])).length,
        }),
      },
    ],
    logger,
  );
  return {
    async stop() {
      await running.stop();
      mails?.close();
    },
  };
}
