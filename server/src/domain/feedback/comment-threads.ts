import type { Statements } from '../../db/pool.js';
import { KEEP_THREAD_FROM, type DetailStatement } from './feedback.sql.js';

/*
 * An item's detail with a long thread, read without building the thread again (issue 39: with
 * 1,000 comments, the detail's p99 at most twice that with 10). Building 1,000 comments' JSON is
 * most of the statement's time (about 5 µs a comment in PostgreSQL), and a popular item is read
 * far more often than it is commented on. So a reader keeps the last long threads it built, each
 * with its stamp (domain/feedback/feedback.sql.ts, threadDetailText), and sends the stamp with the statement:
 * when it is still the thread's, the statement answers without the thread and the kept text is
 * used. It is still one statement, and the database decides whether the thread changed, so a
 * comment written through another process, a team page or an import is never missed.
 *
 * An item is read with the plain statement until its answer shows a long thread
 * (`comment_count`), and with the thread statement from then on: the short items, nearly all of
 * them, cost what they always did.
 */

/** A long thread's JSON text and the stamp it was built at; none yet for an item just found long. */
interface KeptThread {
  stamp: string | null;
  text: string;
}

/** What the plain detail statements answer (domain/feedback/feedback.sql.ts, detailText). */
type DetailRow = {
  body: string;
  comment_count: number;
};

/** What the thread statements answer (domain/feedback/feedback.sql.ts, threadDetailText). */
type ThreadDetailRow = {
  head: string;
  thread: string | null;
  tail: string | null;
  stamp: string | null;
};

/** The threads one reader keeps at most, in characters of JSON (about as many bytes). */
const KEPT_CHARACTERS = 8_000_000;
/** The items a reader remembers as long at most (each costs its key until its thread is kept). */
const KEPT_ITEMS = 10_000;

export class CommentThreads {
  readonly #kept = new Map<string, KeptThread>();
  #characters = 0;
  /** Reads answered with a kept thread (for the tests). */
  hits = 0;

  /**
   * The detail of item `id` as JSON text (the spec's `feedback` object), or undefined when the
   * project has no such item. `secret` says which of the item's threads the statement shows
   * (with internal notes, or without), as the kept threads are told apart by it.
   */
  async read(sql: Statements, statement: DetailStatement, id: string, projectId: string, endUserId: string | null): Promise<string | undefined> {
    const key = `${statement.secret ? 'team' : 'public'}:${id}`;
    const kept = this.#kept.get(key);
    if (kept === undefined) {
      const [row] = await sql.query<DetailRow>(statement.name, statement.text, [id, projectId, endUserId]);
      if (!row) return undefined;
      if (row.comment_count >= KEEP_THREAD_FROM) this.#keep(key, { stamp: null, text: '' });
      return row.body;
    }
    const [row] = await sql.query<ThreadDetailRow>(statement.thread.name, statement.thread.text, [id, projectId, endUserId, kept.stamp]);
    if (!row) {
      this.#forget(key);
      return undefined;
    }
    let thread = row.thread;
    if (thread === null) {
      // The statement leaves the thread out only for the stamp it was sent, which was kept's.
      thread = kept.text;
      this.hits += 1;
      this.#keep(key, kept);
    } else if (row.stamp === null) {
      // No longer long (comments deleted): read with the plain statement again.
      this.#forget(key);
    } else {
      this.#keep(key, { stamp: row.stamp, text: thread });
    }
    return `${row.head.slice(0, -1)},"comments":${thread}${row.tail === null ? '}' : `,${row.tail.slice(1)}`}`;
  }

  /** Keeps `thread` as the newest; the oldest go past the bounds. */
  #keep(key: string, thread: KeptThread): void {
    this.#forget(key);
    if (thread.text.length > KEPT_CHARACTERS / 4) return;
    this.#kept.set(key, thread);
    this.#characters += thread.text.length;
    for (const oldest of this.#kept.keys()) {
      if (this.#characters <= KEPT_CHARACTERS && this.#kept.size <= KEPT_ITEMS) break;
      this.#forget(oldest);
    }
  }

  #forget(key: string): void {
    const thread = this.#kept.get(key);
    if (thread === undefined) return;
    this.#kept.delete(key);
    this.#characters -= thread.text.length;
  }
}
