import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { ConnectionError, FeedbackApiError, NotFoundError, TimeoutError, type FeedbackClient } from '@feedbackd/sdk';
import { ERROR_MESSAGES, WEBHOOK_RESPONSE_EXCERPT_CHARS, type PulledWebhookDelivery, type ReportWebhookDeliveryRequest, type Webhook, type WebhookEventType } from '@feedbackd/sdk/contract';
import { serverUrl, type ApiFlags } from './api-options.js';
import { CliError, EXIT } from './exit-codes.js';
import { exactOutput, jsonText, type Output } from './output.js';
import { createClient, toCliError, withoutOperation } from './sdk-client.js';

/** The longest a pull waits on the server for an event: its maximum. */
const PULL_WAIT_SECONDS = 25;
/** Deliveries forwarded at once: a slow receiver holds up a few, and its own machine is not flooded. */
const FORWARDS_AT_ONCE = 4;
/** A forward's time limit, the server's own for an attempt (docs/webhooks.md). */
const FORWARD_TIMEOUT_MS = 15_000;
/** On Ctrl-C, how long the forwards under way may still take before they are cut. */
const STOP_GRACE_MS = 5_000;
/** Waits between pulls while the server cannot be reached: doubling from a second, up to this. */
const BACKOFF_MAX_MS = 30_000;

export interface ForwardingOptions {
  /** The developer's receiver. */
  forwardTo: string;
  /** The event types to receive; absent, every type. */
  events?: WebhookEventType[];
}

/**
 * Makes a pull endpoint, then pulls its deliveries and forwards each to `forwardTo` until SIGINT or
 * SIGTERM, when it lets the forwards under way finish (for a while), deletes the endpoint and
 * returns. A 401, 403 or 404 from the server ends it with that error's exit code.
 */
export async function forwardWebhooks(flags: ApiFlags, options: ForwardingOptions, output: Output): Promise<void> {
  const server = serverUrl(flags);
  const client = createClient(flags);
  const stop = new AbortController();
  // A second Ctrl-C does not wait for the stop: the endpoint is left for the server to prune.
  const onSignal = () => (stop.signal.aborted ? process.exit(EXIT.error) : stop.abort());
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  try {
    const { webhook, secret } = await client.webhooks.listen({ forwardTo: options.forwardTo, events: options.events }).catch((error: unknown) => {
      throw toCliError(error, server);
    });
    if (flags.json) exactOutput(output).out(jsonText({ webhook, secret }));
    output.err(`Forwarding ${webhook.events === null ? 'every event' : webhook.events.join(',')} to ${options.forwardTo}; signing secret ${secret} (use it in your receiver). Ctrl-C to stop.`);
    try {
      await new Listener({ client, webhook, server, forwardTo: options.forwardTo, json: flags.json, output, stopping: stop.signal }).run();
    } finally {
      await client.webhooks.delete(webhook.id, { maxRetries: 0, timeoutMs: 5_000 }).catch((error: unknown) => {
        output.err(`feedback: could not delete this listener's endpoint ${webhook.id} (${sentence(error, server)}); the server deletes it after an hour without pulls`);
      });
    }
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await client.close();
  }
}

/** What a forward came to, as the server's delivery log records an attempt. */
type Outcome = Required<ReportWebhookDeliveryRequest>;

/** What one run's loop works with. */
interface ListenerContext {
  client: FeedbackClient;
  webhook: Webhook;
  /** The server's address, for messages. */
  server: string;
  forwardTo: string;
  json: boolean;
  output: Output;
  /** Aborted by SIGINT or SIGTERM. */
  stopping: AbortSignal;
}

/** One run's loop: pull, forward a few at a time, report, print. */
class Listener {
  /** Aborted once the stop's grace is over: the forwards and reports still under way are cut. */
  readonly #cut = new AbortController();
  /** Set when the receiver answered 410 Gone, which disables the endpoint: nothing more will come. */
  #gone = false;
  readonly client: FeedbackClient;
  readonly webhook: Webhook;
  readonly server: string;
  readonly forwardTo: string;
  readonly json: boolean;
  readonly output: Output;
  readonly stopping: AbortSignal;

  constructor(context: ListenerContext) {
    ({ client: this.client, webhook: this.webhook, server: this.server, forwardTo: this.forwardTo, json: this.json, output: this.output, stopping: this.stopping } = context);
  }

  async run(): Promise<void> {
    let failures = 0;
    let batch: Promise<void> = Promise.resolve();
    const stopped = new Promise<void>((resolve) => this.stopping.addEventListener('abort', () => resolve(), { once: true }));
    while (!this.stopping.aborted && !this.#gone) {
      let pulled: PulledWebhookDelivery[];
      try {
        pulled = await this.client.webhooks.pull(this.webhook.id, { waitSeconds: PULL_WAIT_SECONDS }, { maxRetries: 0, signal: this.stopping });
      } catch (error) {
        if (this.stopping.aborted) break;
        if (!isPassing(error)) throw toCliError(error, this.server);
        failures += 1;
        if (failures === 1) this.output.err(`feedback: cannot reach the server at ${this.server} (${withoutOperation(String((error as Error).message))}); trying again until it answers`);
        await sleep(Math.min(1_000 * 2 ** (failures - 1), BACKOFF_MAX_MS), undefined, { signal: this.stopping }).catch(() => {});
        continue;
      }
      if (failures > 0) this.output.err(`Reached the server at ${this.server} again; listening.`);
      failures = 0;
      batch = this.forwardAll(pulled);
      await Promise.race([batch, stopped]);
    }
    // Stopping: the forwards under way may finish for a while, then they are cut.
    await Promise.race([batch, sleep(STOP_GRACE_MS, undefined, { ref: false })]);
    this.#cut.abort();
    await batch;
    if (this.#gone) {
      throw new CliError(`the receiver at ${this.forwardTo} answered 410 Gone, which disables a webhook endpoint: run \`feedback webhooks listen\` again to go on`, EXIT.error);
    }
  }

  /** Forwards a pull's deliveries, FORWARDS_AT_ONCE at a time, starting none once stopping. */
  async forwardAll(deliveries: PulledWebhookDelivery[]): Promise<void> {
    const queue = [...deliveries];
    const worker = async () => {
      for (let next = queue.shift(); next && !this.stopping.aborted; next = queue.shift()) await this.forwardOne(next);
    };
    await Promise.all(Array.from({ length: Math.min(FORWARDS_AT_ONCE, queue.length) }, worker));
  }

  async forwardOne(delivery: PulledWebhookDelivery): Promise<void> {
    const outcome = await forward(this.forwardTo, delivery, this.#cut.signal);
    // Cut by the stop: the endpoint is about to be deleted, with this delivery.
    if (this.#cut.signal.aborted) return;
    this.print(delivery, outcome);
    if (outcome.statusCode === 410) this.#gone = true;
    try {
      await this.client.webhooks.reportOutcome(this.webhook.id, delivery.deliveryId, outcome, { signal: this.#cut.signal });
    } catch (error) {
      if (this.#cut.signal.aborted) return;
      // Not recorded: the claim expires and the server hands the delivery out again (same webhook-id).
      const why = error instanceof NotFoundError && error.message === ERROR_MESSAGES.deliveryNotFound ? 'its claim had expired' : sentence(error, this.server);
      this.output.err(`feedback: the outcome of ${delivery.headers['webhook-id']} was not recorded (${why}); it comes again`);
    }
  }

  print(delivery: PulledWebhookDelivery, outcome: Outcome): void {
    const at = new Date().toISOString();
    const webhookId = delivery.headers['webhook-id'];
    if (this.json) {
      const line = { at, eventType: delivery.eventType, webhookId, deliveryId: delivery.deliveryId, attempt: delivery.attempt, statusCode: outcome.statusCode, latencyMs: outcome.latencyMs, error: outcome.error };
      exactOutput(this.output).out(jsonText(line));
      return;
    }
    const result = outcome.statusCode === null ? `failed: ${outcome.error}` : String(outcome.statusCode);
    this.output.out(`${at.slice(0, 10)} ${at.slice(11, 19)}  ${delivery.eventType}  ${webhookId}  → ${result} (${outcome.latencyMs} ms)`);
  }
}

/**
 * One POST of a pulled delivery, with exactly its headers and body: only the answer's status and
 * its start are kept, redirects are not followed (undici's request follows none), and the server's
 * time limit applies. No private-network guard: the target is the developer's own machine.
 */
async function forward(url: string, delivery: PulledWebhookDelivery, cut: AbortSignal): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const answer = await request(url, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
      signal: AbortSignal.any([AbortSignal.timeout(FORWARD_TIMEOUT_MS), cut]),
    });
    let text = '';
    for await (const chunk of answer.body) {
      text += (chunk as Buffer).toString('utf8');
      if (text.length >= WEBHOOK_RESPONSE_EXCERPT_CHARS) {
        answer.body.destroy();
        break;
      }
    }
    return { statusCode: answer.statusCode, latencyMs: elapsed(), error: null, response: text.slice(0, WEBHOOK_RESPONSE_EXCERPT_CHARS) };
  } catch (error) {
    const message = cut.aborted
      ? 'the listener stopped before an answer'
      : error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
        ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`
        : errorText(error);
    return { statusCode: null, latencyMs: elapsed(), error: message, response: null };
  }
}

/** A failure that passes (the server restarting, a network out, a busy server): pulling goes on after a wait. */
function isPassing(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return true;
  return error instanceof FeedbackApiError && (error.status >= 500 || error.status === 429);
}

/** An SDK error as the CLI words it (sdk-client.ts), for a message that goes on. */
function sentence(error: unknown, server: string): string {
  const worded = toCliError(error, server);
  return worded instanceof Error ? worded.message : String(worded);
}

/** A failed connection's reason: `localhost` tried on IPv6 and IPv4 fails with one error per address. */
function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return [...new Set(error.errors.map(errorText))].join('; ');
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return error.message || (typeof code === 'string' ? code : error.name);
}
