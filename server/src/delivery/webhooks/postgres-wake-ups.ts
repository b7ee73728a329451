import pg from 'pg';
import type { SqlPool } from '../../db/pool.js';
import type { Logger } from '../../logger.js';
import type { WakeupRelay } from './wake-ups.js';

/** The channel on which the processes of every machine on one PostgreSQL tell each other of changes for waiting pulls. */
export const WAKEUP_CHANNEL = 'feedback_webhook_wakeups';

/** The statement that tells them. */
export const TELL_WAKEUP = `select pg_notify('${WAKEUP_CHANNEL}', '')`;

/** How long the listening connection stays open after the last waiting pull, so that a listener's next pull finds it open. */
const LINGER_MS = 60_000;
/** The longest wait between tries to open it again, when the database cannot be reached. */
const MOST_BACKOFF_MS = 30_000;

/**
 * Wake-ups across processes and machines on a PostgreSQL (wake-ups.ts): `tell` is one NOTIFY on
 * the hot pool (at most every WAKEUP_EVERY_MS, only after a change); while a pull waits in this
 * process, a connection of its own LISTENs, and each notification wakes the pulls (`heard`).
 * LISTEN costs no statement while nothing is told. Each time it starts listening it wakes them
 * too, as a change may have been told while it was not.
 */
export function postgresWakeups(connection: pg.ClientConfig, sql: Pick<SqlPool, 'query'>, heard: () => void, logger: Logger): WakeupRelay {
  let client: pg.Client | undefined;
  let wanted = false;
  let closed = false;
  let linger: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoffMs = 1_000;

  const drop = (gone: pg.Client) => {
    if (client !== gone) return;
    client = undefined;
    gone.removeAllListeners();
    gone.on('error', () => {});
    void gone.end().catch(() => {});
  };

  const open = async () => {
    if (client || closed || !wanted) return;
    const opening = new pg.Client(connection);
    client = opening;
    opening.on('notification', () => heard());
    opening.on('error', (error) => lost(opening, error));
    opening.on('end', () => lost(opening, new Error('the connection ended')));
    try {
      await opening.connect();
      await opening.query(`listen ${WAKEUP_CHANNEL}`);
      backoffMs = 1_000;
      heard();
    } catch (error) {
      lost(opening, error);
    }
  };

  const lost = (gone: pg.Client, error: unknown) => {
    if (client !== gone) return;
    drop(gone);
    if (closed || !wanted) return;
    logger.debug('webhook wake-ups: the listening connection was lost; waiting pulls are woken at their own time until it is back', { error: String(error), retryInMs: backoffMs });
    // Meanwhile each pull wakes at its own time: a look now sees what may have been told.
    heard();
    clearTimeout(retry);
    retry = setTimeout(() => void open(), backoffMs);
    retry.unref();
    backoffMs = Math.min(backoffMs * 2, MOST_BACKOFF_MS);
  };

  return {
    tell() {
      void sql.query('', TELL_WAKEUP, []).catch(() => {});
    },
    hear(on) {
      wanted = on;
      clearTimeout(linger);
      if (on) return void open();
      linger = setTimeout(() => {
        if (!wanted && client) drop(client);
      }, LINGER_MS);
      linger.unref();
    },
    async close() {
      closed = true;
      clearTimeout(linger);
      clearTimeout(retry);
      if (client) drop(client);
    },
  };
}
