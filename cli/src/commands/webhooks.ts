import { Command, Option } from 'commander';
import { WEBHOOK_EVENT_TYPES } from '@feedbackd/sdk/constants';
import type { Webhook, WebhookDelivery } from '@feedbackd/sdk/contract';
import { addApiOptions, apiFlags } from '../api-options.js';
import { withClient } from '../api-call.js';
import { CliError, EXIT } from '../exit-codes.js';
import { enumList, wholeNumber } from '../flag-values.js';
import { formatTime, oneLine, printFields, printJson, printLine, printTable, truncate, type Output } from '../output.js';
import { webhooksListenCommand } from './webhooks-listen.js';

const FORMATS = ['standard', 'slack', 'discord'] as const;

/** create and update take --url for the endpoint: the server's address is given another way. */
const SERVER_ADDRESS_HELP = '\nHere --url is the endpoint. The server is FEEDBACK_URL, your `feedback login`, or `feedback --url SERVER webhooks ...`.';

interface EndpointFlags {
  url?: string;
  events?: string;
  allEvents?: boolean;
  description?: string;
  format?: (typeof FORMATS)[number];
  includeInternal?: boolean;
}

/**
 * `feedback webhooks ...`: the project's webhook endpoints, through the API with a secret key
 * (docs/webhooks.md). Each subcommand prints for people on a terminal, one tab-separated line
 * per endpoint when piped, and the API's answer with --json.
 */
export function webhooksCommand(output: Output): Command {
  const webhooks = new Command('webhooks').description("Send the project's events to your own systems: signed, retried, logged (needs a secret key)");

  const create = new Command('create')
    .description('Subscribe a URL to events (every type unless --events); prints its id and, once, its signing secret')
    .requiredOption('--url <url>', 'where to POST the events (https, or http)')
    .option('--events <types>', `event types separated by commas: ${WEBHOOK_EVENT_TYPES.join(', ')}`)
    .option('--description <text>', 'what the endpoint is for')
    .addOption(new Option('--format <format>', 'body format: Standard Webhooks JSON, or a chat incoming-webhook message').choices(FORMATS))
    .option('--include-internal', "also send comment events about the team's internal notes (off by default)")
    .addHelpText('after', SERVER_ADDRESS_HELP);
  webhooks.addCommand(
    addApiOptions(create, { serverUrl: false }).action(async (flags: EndpointFlags, self: Command) => {
      const api = apiFlags(self);
      const events = enumList(flags.events, '--events', WEBHOOK_EVENT_TYPES);
      const result = await withClient(api, (client) => client.webhooks.create({ url: flags.url!, events, description: flags.description, format: flags.format, includeInternal: flags.includeInternal }));
      if (api.json) return printJson(output, result);
      if (!output.isTty) return printLine(output, [result.webhook.id, result.secret]);
      output.out(`Created webhook ${result.webhook.id} for ${result.webhook.url} (${eventsText(result.webhook)}).`);
      output.out(`Signing secret (shown only now; keep it with the receiver): ${result.secret}`);
    }),
  );

  const list = new Command('list').description("List the project's webhook endpoints");
  webhooks.addCommand(
    addApiOptions(list).action(async (_flags: unknown, self: Command) => {
      const api = apiFlags(self);
      const items = await withClient(api, (client) => client.webhooks.list());
      if (api.json) return printJson(output, { items });
      if (output.isTty && items.length === 0) return output.out('No webhook endpoints yet: `feedback webhooks create --url URL` adds one.');
      printTable(
        output,
        [
          { header: 'ID', value: (w: Webhook) => w.id },
          { header: 'STATE', value: (w: Webhook) => (w.enabled ? 'enabled' : 'disabled') },
          { header: 'EVENTS', value: (w: Webhook) => eventsText(w) },
          { header: 'URL', value: (w: Webhook) => w.url },
        ],
        items,
      );
    }),
  );

  const update = new Command('update')
    .description("Change an endpoint's URL, events, description or format")
    .argument('<id>', 'id of the endpoint')
    .option('--url <url>', 'the new URL')
    .option('--events <types>', 'the new event types, separated by commas')
    .option('--all-events', 'receive every event type from now on')
    .option('--description <text>', 'the new description ("" clears it)')
    .addOption(new Option('--format <format>', 'the new body format').choices(FORMATS))
    .option('--include-internal', "also send comment events about the team's internal notes")
    .option('--no-include-internal', 'stop sending events about internal notes')
    .addHelpText('after', SERVER_ADDRESS_HELP);
  webhooks.addCommand(
    addApiOptions(update, { serverUrl: false }).action(async (id: string, flags: EndpointFlags, self: Command) => {
      if (flags.events !== undefined && flags.allEvents) throw new CliError('give --events or --all-events, not both', EXIT.usage);
      const events = flags.allEvents ? null : enumList(flags.events, '--events', WEBHOOK_EVENT_TYPES);
      const changes = { url: flags.url, events, description: flags.description === '' ? null : flags.description, format: flags.format, includeInternal: flags.includeInternal };
      await showAfter(output, self, id, (client) => client.webhooks.update(id, changes), 'Updated');
    }),
  );

  for (const [name, enabled, description] of [
    ['disable', false, 'Stop sending to an endpoint (its pending deliveries wait)'],
    ['enable', true, 'Send to an endpoint again'],
  ] as const) {
    const command = new Command(name).description(description).argument('<id>', 'id of the endpoint');
    webhooks.addCommand(
      addApiOptions(command).action(async (id: string, _flags: unknown, self: Command) => {
        await showAfter(output, self, id, (client) => client.webhooks.update(id, { enabled }), enabled ? 'Enabled' : 'Disabled');
      }),
    );
  }

  const remove = new Command('delete').description('Delete an endpoint with its deliveries and their log').argument('<id>', 'id of the endpoint');
  webhooks.addCommand(
    addApiOptions(remove).action(async (id: string, _flags: unknown, self: Command) => {
      const api = apiFlags(self);
      const result = await withClient(api, (client) => client.webhooks.delete(id));
      if (api.json) return printJson(output, result);
      if (!output.isTty) return printLine(output, [result.id]);
      output.out(`Deleted webhook ${result.id}.`);
    }),
  );

  const rotate = new Command('rotate-secret')
    .description('Give an endpoint a new signing secret; the old one also signs for a grace period')
    .argument('<id>', 'id of the endpoint')
    .option('--grace <seconds>', 'how long the old secret still signs (default a day; 0 ends it now)');
  webhooks.addCommand(
    addApiOptions(rotate).action(async (id: string, flags: { grace?: string }, self: Command) => {
      const api = apiFlags(self);
      const graceSeconds = flags.grace === undefined ? undefined : wholeNumber(flags.grace, '--grace', { min: 0, max: 7 * 86_400 });
      const result = await withClient(api, (client) => client.webhooks.rotateSecret(id, { graceSeconds }));
      if (api.json) return printJson(output, result);
      if (!output.isTty) return printLine(output, [result.webhook.id, result.secret]);
      const until = result.webhook.previousSecretExpiresAt;
      output.out(`New signing secret of ${result.webhook.id} (shown only now): ${result.secret}`);
      output.out(until ? `The previous secret also signs until ${formatTime(until)}.` : 'The previous secret no longer signs.');
    }),
  );
  const test = new Command('test').description('Send a signed webhook.test to an endpoint now; prints the status, the time and the start of the answer').argument('<id>', 'id of the endpoint');
  webhooks.addCommand(
    addApiOptions(test).action(async (id: string, _flags: unknown, self: Command) => {
      const api = apiFlags(self);
      const delivery = await withClient(api, (client) => client.webhooks.test(id));
      if (api.json) return printJson(output, { delivery });
      const [tried] = delivery.attemptLog;
      if (!output.isTty) return printLine(output, [delivery.id, tried?.statusCode ?? '-', tried?.latencyMs ?? '-', oneLine(tried?.error ?? tried?.response ?? '')]);
      const outcome = tried?.statusCode != null ? `HTTP ${tried.statusCode}` : `failed: ${tried?.error ?? 'no attempt'}`;
      output.out(`${delivery.state === 'succeeded' ? 'Delivered' : 'Not delivered'} (${outcome}) in ${tried?.latencyMs ?? 0} ms.`);
      if (tried?.response) output.out(`The answer began: ${truncate(oneLine(tried.response), 200)}`);
      if (delivery.state !== 'succeeded') throw new CliError(`the endpoint did not accept the test (${outcome})`, EXIT.error);
    }),
  );

  const deliveries = new Command('deliveries')
    .description("An endpoint's deliveries, newest first, with their attempts")
    .argument('<id>', 'id of the endpoint')
    .addOption(new Option('--state <state>', 'only deliveries in this state').choices(['pending', 'succeeded', 'failed']))
    .option('--event <eventId>', 'only the delivery of this event')
    .option('--limit <n>', 'at most this many (1 to 100)', '20');
  webhooks.addCommand(
    addApiOptions(deliveries).action(async (id: string, flags: { state?: WebhookDelivery['state']; event?: string; limit: string }, self: Command) => {
      const api = apiFlags(self);
      const limit = wholeNumber(flags.limit, '--limit', { min: 1, max: 100 });
      const items = await withClient(api, (client) => client.webhooks.deliveries(id, { state: flags.state, eventId: flags.event, limit }));
      if (api.json) return printJson(output, { items });
      if (output.isTty && items.length === 0) return output.out('No deliveries.');
      printTable(
        output,
        [
          { header: 'DELIVERY', value: (d: WebhookDelivery) => d.id },
          { header: 'TYPE', value: (d: WebhookDelivery) => d.type },
          { header: 'STATE', value: (d: WebhookDelivery) => d.state },
          { header: 'ATTEMPTS', value: (d: WebhookDelivery) => String(d.attemptLog.length) },
          { header: 'LAST', value: (d: WebhookDelivery) => (d.lastStatus !== null ? `HTTP ${d.lastStatus}` : oneLine(d.lastError ?? '-')) },
          { header: 'CREATED', value: (d: WebhookDelivery) => (output.isTty ? formatTime(d.createdAt) : d.createdAt) },
        ],
        items,
      );
    }),
  );

  const redeliver = new Command('redeliver').description('Send one delivery again now, with the same webhook-id').argument('<delivery-id>', 'id of the delivery (see `feedback webhooks deliveries`)');
  webhooks.addCommand(
    addApiOptions(redeliver).action(async (deliveryId: string, _flags: unknown, self: Command) => {
      const api = apiFlags(self);
      const delivery = await withClient(api, (client) => client.webhooks.redeliver(deliveryId));
      if (api.json) return printJson(output, { delivery });
      if (!output.isTty) return printLine(output, [delivery.id, delivery.state]);
      output.out(`Delivery ${delivery.id} is queued again; it leaves within a second.`);
    }),
  );

  const recover = new Command('recover')
    .description('After an outage: queue again every failed delivery of an endpoint made since a time')
    .argument('<id>', 'id of the endpoint')
    .requiredOption('--since <time>', 'an ISO 8601 date and time, like 2026-11-25T08:00:00Z');
  webhooks.addCommand(
    addApiOptions(recover).action(async (id: string, flags: { since: string }, self: Command) => {
      const api = apiFlags(self);
      const since = new Date(flags.since);
      if (Number.isNaN(since.getTime())) throw new CliError(`--since must be a date and time, like 2026-11-25T08:00:00Z, not "${flags.since}"`, EXIT.usage);
      const requeued = await withClient(api, (client) => client.webhooks.recover(id, since));
      if (api.json) return printJson(output, { requeued });
      if (!output.isTty) return printLine(output, [requeued]);
      output.out(`${requeued} failed deliver${requeued === 1 ? 'y is' : 'ies are'} queued again.`);
    }),
  );
  webhooks.addCommand(webhooksListenCommand(output));
  return webhooks;
}

/** Runs a change of one endpoint and shows the endpoint after it. */
async function showAfter(output: Output, self: Command, id: string, change: Parameters<typeof withClient<Webhook>>[1], verb: string): Promise<void> {
  const api = apiFlags(self);
  const webhook = await withClient(api, change);
  if (api.json) return printJson(output, { webhook });
  if (!output.isTty) return printLine(output, [webhook.id, webhook.enabled ? 'enabled' : 'disabled', eventsText(webhook), webhook.url]);
  output.out(`${verb} webhook ${id}:`);
  printFields(output, [
    ['url', webhook.url],
    ['events', eventsText(webhook)],
    ['state', webhook.enabled ? 'enabled' : `disabled (${webhook.disabledReason ?? 'by an operator'})`],
    ['description', webhook.description ?? ''],
  ]);
}

function eventsText(webhook: Webhook): string {
  return webhook.events === null ? 'every event' : webhook.events.join(',');
}
