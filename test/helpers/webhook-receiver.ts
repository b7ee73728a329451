import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './until.js';

// A webhook receiver for the tests of deliveries, sent by the server or forwarded by a listener.

/** What a receiver got: the raw body and the headers, as they arrived. */
export interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

/**
 * A webhook receiver on 127.0.0.1: it records every POST and answers with the next status of
 * `answers` (the last one repeats), 200 by default. With `echo`, its answer's body is the body it
 * got (as some receivers do), so the server's log of answers holds what was sent.
 */
export async function startReceiver(answers: number[] = [200], { echo = false } = {}): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  let answered = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ body, headers: req.headers });
      const status = answers[Math.min(answered, answers.length - 1)]!;
      answered += 1;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(echo ? body : status < 300 ? 'thanks' : 'not now');
    });
  });
  return { ...(await listening(server)), received };
}

/** A receiver that reads each request and never answers it (`held` counts them); close() cuts them. */
export async function startHangingReceiver(): Promise<{ url: string; held(): number; close(): Promise<void> }> {
  let held = 0;
  const server = createServer((req) => {
    held += 1;
    req.resume();
  });
  return { ...(await listening(server)), held: () => held };
}

/** `server` listening on a free port of 127.0.0.1: its /hooks URL, and a close that ends its connections. */
async function listening(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The signature headers of a delivery, as standardwebhooks reads them. */
export function signatureHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return { 'webhook-id': String(headers['webhook-id']), 'webhook-timestamp': String(headers['webhook-timestamp']), 'webhook-signature': String(headers['webhook-signature']) };
}

export { until } from './until.js';

/**
 * Waits until the server's sender has nothing left to do: every event written is fanned out
 * (grouped rows expanded) and no delivery to an enabled push endpoint waits. What a receiver is
 * going to get, it has then, and the log holds its answer to each; a test that checks what did not
 * arrive, or what the log kept, looks after this rather than after a pause.
 */
export async function outboxSettled(server: { sql<T>(text: string, params?: unknown[]): Promise<T[]> }, ms = 30_000): Promise<void> {
  await until(
    async () => {
      const [row] = await server.sql<{ waiting: number }>(
        `select (select count(*) from webhook_events where not fanned_out)::int + (select count(*) from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
           where d.state = 'pending' and w.disabled_at is null and w.mode = 'push')::int as waiting`,
      );
      return row!.waiting === 0;
    },
    ms,
    'every event fanned out and delivered',
  );
}
