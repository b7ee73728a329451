import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/*
 * A real SMTP server for the tests of the notifications' mail (smtp-server, by nodemailer's
 * authors): every message it takes is parsed with mailparser. It can refuse chosen addresses for
 * good (550 at RCPT TO), and stop and start again on its port (a mail server that was down).
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
}

export async function startSmtp(port = 0): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  const refuse = new Set<string>();
  let server: SMTPServer | undefined;
  const listen = async (on: number): Promise<number> => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (refuse.has(address.address)) {
          const error = Object.assign(new Error('No such mailbox here'), { responseCode: 550 });
          return callback(error);
        }
        callback();
      },
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            received.push(mail);
            callback();
          })
          .catch(callback);
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
  };
}
