import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/*
 * A real SMTP server for the tests of the notifications' mail (smtp-server, by nodemailer's
 * authors): every message it takes is parsed with mailparser. It can refuse chosen addresses for
 * good (550 at RCPT TO), and stop and start again on its port (a mail server that was down). While
 * `hold` is on, each message read in full waits for its answer until the test releases it (a slow
 * mail server, and a test that chooses which messages were taken): a message is in `received` only
 * once the 250 that takes it has been written.
 */

export interface TestSmtp {
  url: string;
  port: number;
  /** Every message taken, parsed, in the order they arrived. */
  received: ParsedMail[];
  /** Addresses refused with a 550 (a permanent refusal). */
  refuse: Set<string>;
  /** The messages to one address. */
  to(address: string): ParsedMail[];
  stop(): Promise<void>;
  /** Starts again on the same port (after stop). */
  start(): Promise<void>;
  /** Whether messages wait for release() before they are taken (off: taken at once). Turning it off does not release those waiting. */
  hold: boolean;
  /** Messages read in full that wait for their answer, on connections still open. */
  readonly held: number;
  /**
   * Takes up to `count` waiting messages (all of them by default), oldest first, synchronously: their
   * 250 is written before this returns. Returns how many were taken. A message whose connection
   * this server saw close while it waited was dropped then, and is never taken.
   */
  release(count?: number): number;
}

interface Held {
  mail: ParsedMail;
  session: string;
  answer(error?: Error): void;
}

export async function startSmtp(port = 0): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  const refuse = new Set<string>();
  const waiting: Held[] = [];
  const closed = new Set<string>();
  let hold = false;
  const take = (entry: Held) => {
    received.push(entry.mail);
    entry.answer();
  };
  let server: SMTPServer | undefined;
  const listen = async (on: number): Promise<number> => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      // stop() is a mail server going down: the connections a sender's pool keeps open are closed
      // at once (421), not after smtp-server's 30 s of grace.
      closeTimeout: 100,
      onRcptTo(address, _session, callback) {
        if (refuse.has(address.address)) {
          const error = Object.assign(new Error('No such mailbox here'), { responseCode: 550 });
          return callback(error);
        }
        callback();
      },
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((mail) => {
            const entry: Held = { mail, session: session.id, answer: callback };
            if (closed.has(session.id)) callback(new Error('The connection is gone'));
            else if (hold) waiting.push(entry);
            else take(entry);
          })
          .catch(callback);
      },
      onClose(session) {
        closed.add(session.id);
        for (let i = waiting.length - 1; i >= 0; i -= 1) if (waiting[i]!.session === session.id) waiting.splice(i, 1);
      },
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(on, '127.0.0.1', () => resolve());
    });
    return ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
  };
  const bound = await listen(port);
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    received,
    refuse,
    to: (address) => received.filter((mail) => (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) => to?.value.some((v) => v.address === address))),
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    start: async () => void (await listen(bound)),
    get hold() {
      return hold;
    },
    set hold(on: boolean) {
      hold = on;
    },
    get held() {
      return waiting.length;
    },
    release(count = Infinity) {
      const taken = waiting.splice(0, count);
      for (const entry of taken) take(entry);
      return taken.length;
    },
  };
}
