import { isStatementError } from './pipelined-pool.js';

/** A request to one project; requests of one project may leave together in one statement. */
export interface BatchRequest {
  project: string;
}

/**
 * What a batched request is answered: the batch statement's answer for it, or `alone` when
 * PostgreSQL refused a batch of several (the statement then changed nothing): the caller runs the
 * request by itself, where its own error, if any, is its own.
 */
export type Batched<Answer> = Answer | 'alone';

export interface StatementBatches<Request extends BatchRequest, Answer> {
  send(request: Request): Promise<Batched<Answer>>;
  /** What the queue holds now, and what it has sent (read by the metrics at a scrape). */
  figures(): BatchFigures;
}

/** Requests waiting, statements running, and the statements and requests sent so far. */
export interface BatchFigures {
  waiting: number;
  running: number;
  statements: number;
  requests: number;
}

export interface BatchOptions<Request extends BatchRequest, Answer> {
  /** Batch statements running at once per process; what arrives meanwhile waits and leaves together. */
  inFlight: number;
  /** Requests in one statement at most; a bigger backlog leaves in several. */
  maxBatch: number;
  /** Runs one batch of one project's requests; answers them in the order given. */
  run(project: string, requests: Request[]): Promise<Batched<Answer>[]>;
}

/**
 * The answers of a batch statement, in the order of its requests: each row names its request's
 * 1-based place (`idx`, as `with ordinality` numbers it); a request that got no row is answered `alone`.
 */
export function answersInPlace<Row extends { idx: number | string }, Answer>(rows: Row[], count: number, answer: (row: Row) => Answer): Batched<Answer>[] {
  const byPlace = new Map(rows.map((row) => [Number(row.idx), answer(row)]));
  return Array.from({ length: count }, (_, i) => byPlace.get(i + 1) ?? 'alone');
}

interface Waiting<Request, Answer> {
  request: Request;
  resolve: (answer: Batched<Answer>) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit. Every write is a transaction that waits for its WAL to reach the disk, and a hot
 * connection runs one statement at a time: with a few connections, the commits waited in line and
 * a quarter of the machine sat idle (docs/operations.md, "Benchmark": "A vote is limited by
 * commits in line"). Here at most `inFlight` batch
 * statements run at once; the requests that arrive meanwhile wait and then leave together as one
 * statement (one transaction, one wait for the disk). Under no load a request leaves at the end of
 * the event-loop turn it arrived in, alone.
 *
 * If PostgreSQL refuses the statement of a batch of several, it rolled back whole, and every
 * request of it is answered `alone`, to run again by itself: one caller's error never becomes
 * another's. A batch of one fails with its own error. Any other failure (the connection was lost)
 * fails every request of the batch as it would have failed one alone: whether the batch committed
 * is unknown then, and running a request again could apply it twice.
 */
export function statementBatches<Request extends BatchRequest, Answer>(options: BatchOptions<Request, Answer>): StatementBatches<Request, Answer> {
  const waiting = new Map<string, Waiting<Request, Answer>[]>();
  let running = 0;
  let scheduled = false;
  let sent = { statements: 0, requests: 0 };

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  }

  function pump(): void {
    while (running < options.inFlight && waiting.size > 0) {
      const [project, queue] = waiting.entries().next().value!;
      waiting.delete(project);
      const batch = queue.splice(0, options.maxBatch);
      // A project with more left goes to the back: projects take turns, none waits behind another's backlog.
      if (queue.length > 0) waiting.set(project, queue);
      void leave(project, batch);
    }
  }

  async function leave(project: string, batch: Waiting<Request, Answer>[]): Promise<void> {
    running++;
    sent = { statements: sent.statements + 1, requests: sent.requests + batch.length };
    let answers: Batched<Answer>[] | undefined;
    let failure: unknown;
    try {
      answers = await options.run(project, batch.map((w) => w.request));
    } catch (error) {
      if (batch.length > 1 && isStatementError(error)) answers = batch.map(() => 'alone');
      else failure = error;
    }
    running--;
    // The requests that waited leave now, and this batch's callers are answered after the hot
    // connection has sent them (its writes go out at the end of the turn, in order): PostgreSQL
    // works on the next batch while this process writes the replies of this one.
    pump();
    setImmediate(() => batch.forEach((w, i) => (answers ? w.resolve(answers[i] ?? 'alone') : w.reject(failure))));
  }

  return {
    send(request) {
      return new Promise<Batched<Answer>>((resolve, reject) => {
        const queue = waiting.get(request.project);
        if (queue) queue.push({ request, resolve, reject });
        else waiting.set(request.project, [{ request, resolve, reject }]);
        schedule();
      });
    },
    figures() {
      let waitingNow = 0;
      for (const queue of waiting.values()) waitingNow += queue.length;
      return { waiting: waitingNow, running, ...sent };
    },
  };
}
