import type { PGlite } from '@electric-sql/pglite';

interface PendingMessage {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);
const ROLLBACK = queryMessage('ROLLBACK');

/**
 * Decides which socket connection talks to PGlite next. It replaces pglite-socket's own query
 * queue, which interleaves single protocol messages of different connections: PGlite is one
 * backend session, so connection B's Parse landing between connection A's Parse and Bind makes A
 * execute B's statement. Here a connection keeps the session from the first message of a unit
 * (a simple Query, or an extended Parse..Sync sequence) to its end, and for as long as it holds a
 * transaction open. Everyone else waits in arrival order.
 *
 * It implements the three methods PGLiteSocketHandler calls on its `queryQueue`.
 */
export class SessionScheduler {
  private readonly pending: PendingMessage[] = [];
  private owner: number | undefined;
  private running = false;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending.push({ handlerId, message, onData, resolve, reject });
      void this.pump();
    });
  }

  /** A connection went away: drop what it still had queued. */
  clearQueueForHandler(handlerId: number): void {
    for (let i = this.pending.length - 1; i >= 0; i -= 1) {
      const item = this.pending[i]!;
      if (item.handlerId === handlerId) {
        this.pending.splice(i, 1);
        item.reject(new Error('connection closed'));
      }
    }
  }

  /** A connection went away while it held the session: end its unit and its transaction. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    await this.waitIdle();
    if (this.owner !== handlerId) return;
    this.running = true;
    try {
      const discard = () => {};
      // A Sync ends a half-sent extended query (and clears the error state that skips to Sync).
      await this.db.execProtocolRawStream(SYNC, { onRawData: discard });
      if (this.db.isInTransaction()) await this.db.execProtocolRawStream(ROLLBACK, { onRawData: discard });
    } finally {
      this.owner = undefined;
      this.running = false;
      void this.pump();
    }
  }

  private async pump(): Promise<void> {
    while (!this.running) {
      const index = this.owner === undefined ? 0 : this.pending.findIndex((item) => item.handlerId === this.owner);
      if (index < 0 || this.pending.length === 0) return;
      const [item] = this.pending.splice(index, 1);
      if (!item) return;
      this.running = true;
      let bytes = 0;
      try {
        await this.db.execProtocolRawStream(item.message, {
          onRawData: (data) => {
            bytes += data.length;
            item.onData(data);
          },
        });
        const unitOpen = !endsUnit(item.message);
        this.owner = unitOpen || this.db.isInTransaction() ? item.handlerId : undefined;
        item.resolve(bytes);
      } catch (error) {
        // The handler detaches on a rejection, and its detach ends the unit via clearTransactionIfNeeded.
        this.owner = item.handlerId;
        item.reject(error);
      } finally {
        this.running = false;
      }
    }
  }

  private async waitIdle(): Promise<void> {
    while (this.running) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** True when the frontend message completes a unit after which another connection may go. */
function endsUnit(message: Uint8Array): boolean {
  const type = message[0];
  // A startup or SSL request has no type byte: its first byte is the high byte of its length.
  if (type === 0) return true;
  // Query, Sync, Terminate, FunctionCall, PasswordMessage.
  return type === 0x51 || type === 0x53 || type === 0x58 || type === 0x46 || type === 0x70;
}

function queryMessage(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const message = Buffer.alloc(5 + text.length);
  message.write('Q', 0, 'ascii');
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}
