import type { Statements } from '../http/mount.js';
import type { DetailStatement } from './feedback.sql.js';

/*
 * An item's detail with a long thread, read without building the thread again (issue 39: with
 * 1,000 comments, the detail's p99 at most twice that with 10). Building 1,000 comments' JSON is
 * most of the statement's time (about 6 µs a comment in PostgreSQL), and a popular item is read
 * far more often than it is commented on. So a reader keeps the last threads it built, each with
 * its stamp (api/feedback.sql.ts, detailText), and sends the stamp with the statement: when it is
 * still the thread's, the statement answers without the thread and the kept text is used. It is
 * still one statement, and the database decides whether the thread changed, so a comment written
 * through another process, a team page or an import is never missed.
 */

/** A thread's JSON text and the stamp it was built at. */
interface KeptThread {
  stamp: string;
  text: string;
}

/** What the detail statements answer (api/feedback.sql.ts, detailText). */
type DetailRow = {
  head: string;
  thread: string | null;
  tail: string | null;
  stamp: string | null;
};

/** The threads one reader keeps at most, in characters of JSON (about as many bytes). */
const KEPT_CHARACTERS = 8_000_000;

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
    const [row] = await sql.query<DetailRow>(statement.name, statement.text, [id, projectId, endUserId, kept?.stamp ?? null]);
    if (!row) return undefined;
    let thread = row.thread;
    if (thread === null) {
      // The statement leaves the thread out only for the stamp it was sent, which came from `kept`.
      thread = kept!.text;
      this.hits += 1;
      this.#keep(key, kept!);
    } else if (row.stamp !== null) {
      this.#keep(key, { stamp: row.stamp, text: thread });
    }
    return `${row.head.slice(0, -1)},"comments":${thread}${row.tail === null ? '}' : `,${row.tail.slice(1)}`}`;
  }

  /** Keeps `thread` as the newest; the oldest go past the bound. */
  #keep(key: string, thread: KeptThread): void {
    const before = this.#kept.get(key);
    if (before) {
      this.#kept.delete(key);
      this.#characters -= before.text.length;
    }
    if (thread.text.length > KEPT_CHARACTERS / 4) return;
    this.#kept.set(key, thread);
    this.#characters += thread.text.length;
    for (const [oldest, { text }] of this.#kept) {
      if (this.#characters <= KEPT_CHARACTERS) break;
      this.#kept.delete(oldest);
      this.#characters -= text.length;
    }
  }
}
