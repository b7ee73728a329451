import { createTransport, type Transporter } from 'nodemailer';
import { boardPaths } from '../../board-paths.js';
import type { SqlPool } from '../../db/pool.js';
import type { Logger } from '../../logger.js';
import { mailMessage } from './mail-message.js';
import { CLAIM_DUE, MARK_RETRY, MARK_SENT, SUPPRESS, type ClaimedNotification } from './mail.sql.js';
import { signUnsubscribe, unsubscribeKey } from '../../domain/subscriptions/unsubscribe-token.js';

/*
 * The notifications' mail (docs/notifications.md): run by the machine's jobs (jobs/machine-jobs.ts),
 * outside every request, so an SMTP server that is down or slow delays mail and nothing else. Each
 * run claims the recipients whose window has passed (mail.sql.ts, CLAIM_DUE, across processes and
 * machines), sends each one message, and records the outcome: sent; refused for good (a 5xx for
 * the address: suppressed); or tried again later with a growing wait, up to MAX_ATTEMPTS.
 */

/**
 * Recipients claimed at a time: each is one message; nodemailer's pool sends them over a few
 * connections. It is also the most a sender that dies mid-send can leave in flight, and so the
 * most messages that arrive twice after it (test/server/notification-mail-crash.test.ts).
 */
export const RECIPIENTS_PER_CLAIM = 20;
/** The waits between tries: 30 s, doubling, at most an hour; after MAX_ATTEMPTS tries (about 8 hours in all) the rows are `failed`, and `feedback notifications retry` sends them again. */
const FIRST_RETRY_SECONDS = 30;
const MAX_RETRY_SECONDS = 3_600;
export const MAX_ATTEMPTS = 12;
/** How long a claim holds: a sender that dies mid-send leaves its rows to another after this. */
export const LEASE_SECONDS = 300;
/** Connections to the SMTP server at once, so messages being sent at once. */
export const SMTP_CONNECTIONS = 3;
/** Whatever the SMTP server does, one message is given up (and tried again later) after this long. */
const SMTP_TIMEOUT_MS = 30_000;

export interface MailSettings {
  /** `serve --smtp-url`: smtp://user:pass@host:port (smtps:// for TLS from the start). */
  smtpUrl: string;
  /** `serve --mail-from`: "Acme <feedback@acme.example>". */
  from: string;
  /** `serve --notify-window`: seconds a recipient's changes wait to leave as one message (0: at once). */
  windowSeconds: number;
  /** Where the links of the messages go: the public URL, or the server's own address. */
  origin: string;
}

export interface MailSenderOptions extends MailSettings {
  sql: Pick<SqlPool, 'query'>;
  logger: Logger;
  /** The server's secret, from which the unsubscribe tokens' key is derived. */
  serverSecret: Buffer;
  /** The clock (tests move it); the real one by default. */
  now?: () => Date;
  /** Told of every outcome, for the metrics: how many notifications were sent, failed or suppressed. */
  onOutcome?: (outcome: 'sent' | 'failed' | 'suppressed', count: number) => void;
}

export interface MailSender {
  /** Sends every message that is due now; returns how many messages were sent. */
  sendDue(stopping?: AbortSignal): Promise<number>;
  close(): void;
}

export function mailSender(options: MailSenderOptions): MailSender {
  const { sql, logger } = options;
  const now = options.now ?? (() => new Date());
  const key = unsubscribeKey(options.serverSecret);
  // The URL goes inside the transport's options: given alone as the first argument, nodemailer
  // takes it for all of them and the second argument only as the messages' defaults, so the pool
  // and the timeouts were ignored (one connection per message, a whole claim's at once, and
  // nodemailer's 10-minute socket timeout, past the claim's lease: a live sender's rows could be
  // claimed and sent again by another).
  const transport: Transporter = createTransport(
    {
      url: options.smtpUrl,
      pool: true,
      maxConnections: SMTP_CONNECTIONS,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    },
    { from: options.from },
  );

  const links = (row: ClaimedNotification) => ({
    origin: options.origin,
    unsubscribe: async (feedbackId: string | null) =>
      `${options.origin}${boardPaths.unsubscribe(row.project_slug, await signUnsubscribe(key, { projectId: row.project_id, endUserId: row.end_user_id, feedbackId }, now()))}`,
  });

  async function sendOne(rows: ClaimedNotification[]): Promise<boolean> {
    const first = rows[0]!;
    const ids = rows.map((row) => row.id);
    try {
      const message = await mailMessage(rows, links(first));
      await transport.sendMail({
        to: first.name ? { name: first.name, address: first.email } : first.email,
        subject: message.subject,
        text: message.text,
        html: message.html,
        // RFC 8058: a mail client may unsubscribe with one POST to this address, no sign-in.
        list: { unsubscribe: { url: message.unsubscribeUrl, comment: 'Unsubscribe' } },
        headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
      await sql.query('', MARK_SENT, [ids, now().toISOString()]);
      options.onOutcome?.('sent', ids.length);
      return true;
    } catch (error) {
      const reason = describe(error);
      if (isPermanentRefusal(error)) {
        await sql.query('', SUPPRESS, [ids, first.end_user_id, reason]);
        logger.warn('mail address suppressed: the mail server refused it for good', { endUser: first.end_user_id, project: first.project_slug, error: reason });
        options.onOutcome?.('suppressed', ids.length);
        return false;
      }
      const attempts = Math.max(...rows.map((row) => row.attempts));
      const spent = attempts >= MAX_ATTEMPTS;
      const wait = Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** (attempts - 1));
      await sql.query('', MARK_RETRY, [ids, new Date(now().getTime() + wait * 1000).toISOString(), spent, reason]);
      if (spent) {
        logger.warn('mail failed after its last try', { endUser: first.end_user_id, notifications: ids.length, error: reason });
        options.onOutcome?.('failed', ids.length);
      }
      throw error;
    }
  }

  return {
    async sendDue(stopping) {
      let sent = 0;
      let failure: unknown;
      while (!stopping?.aborted && failure === undefined) {
        const claimed = await sql.query<ClaimedNotification>('', CLAIM_DUE, [now().toISOString(), options.windowSeconds, RECIPIENTS_PER_CLAIM, LEASE_SECONDS]);
        if (claimed.length === 0) break;
        const byRecipient = new Map<string, ClaimedNotification[]>();
        for (const row of claimed.sort((a, b) => (a.id < b.id ? -1 : 1))) byRecipient.set(row.end_user_id, [...(byRecipient.get(row.end_user_id) ?? []), row]);
        const outcomes = await Promise.allSettled([...byRecipient.values()].map(sendOne));
        sent += outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value).length;
        // A server that fails (down, slow, refusing for now) is left alone until the next run.
        failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')?.reason;
      }
      if (failure !== undefined) throw new Error(`the mail server did not take every message; they are tried again later: ${describe(failure)}`);
      return sent;
    },
    close() {
      transport.close();
    },
  };
}

/** A 5xx that refused the recipient's address: the address will not work later either. */
function isPermanentRefusal(error: unknown): boolean {
  const { responseCode, code } = error as { responseCode?: number; code?: string };
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && code === 'EENVELOPE';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
