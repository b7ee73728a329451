import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { ChangelogEntry } from '@feedbackd/sdk/contract';
import { addApiOptions, apiFlags } from '../api-options.js';
import { NOTIFYING_CALL, withClient } from '../api-call.js';
import { CliError, EXIT } from '../exit-codes.js';
import { positiveInteger, requireId } from '../flag-values.js';
import { formatTime, printJson, printLine, printTable, truncate, type Output } from '../output.js';

interface EntryFlags {
  title?: string;
  bodyFile?: string;
  link?: string[];
  publish?: boolean;
  publishAt?: string;
  complete?: boolean;
  actor?: string;
}

/** Collects a repeatable flag's values (`--link A --link B`). */
const repeated = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `feedback changelog ...`: the project's changelog through the API (docs/changelog.md). Writing
 * needs a secret key; `list` works with a public key too (the published entries). Each
 * subcommand prints for people on a terminal, one tab-separated line per entry when piped, and
 * the API's answer with --json.
 */
export function changelogCommand(output: Output): Command {
  const changelog = new Command('changelog').description('Write the changelog: entries with a Markdown body and the items they ship (writing needs a secret key)');

  const create = new Command('create')
    .description('Write an entry: a draft, or published with --publish (now) or --publish-at (later)')
    .requiredOption('--title <text>', 'the title')
    .requiredOption('--body-file <file>', 'the Markdown body, read from a file (- reads standard input)')
    .option('--link <id>', 'an item the entry ships (repeat for several)', repeated)
    .option('--publish', 'publish it now')
    .option('--publish-at <time>', 'publish it at this ISO 8601 time, like 2026-12-01T09:00:00Z')
    .option('--complete', 'on publishing, move the linked items to completed (recorded in their history)')
    .option('--actor <name>', 'who completed the items, for their history');
  changelog.addCommand(
    addApiOptions(create).action(async (flags: EntryFlags, self: Command) => {
      const api = apiFlags(self);
      const body = await readBody(flags.bodyFile!);
      const entry = await withClient(api, (client) =>
        client.changelog.create({ title: flags.title!, body, links: flags.link?.map(requireId), publish: flags.publish, publishAt: flags.publishAt, complete: flags.complete, actor: flags.actor }, NOTIFYING_CALL),
      );
      showEntry(output, api.json, entry, 'Created');
    }),
  );

  const update = new Command('update')
    .description("Change an entry's title, body or links (--link replaces the list)")
    .argument('<id>', 'id of the entry')
    .option('--title <text>', 'the new title')
    .option('--body-file <file>', 'the new Markdown body, read from a file (- reads standard input)')
    .option('--link <id>', 'an item the entry ships (repeat for several; the list replaces the old one)', repeated)
    .option('--no-links', 'link no item any more');
  changelog.addCommand(
    addApiOptions(update).action(async (id: string, flags: EntryFlags & { links?: boolean }, self: Command) => {
      const api = apiFlags(self);
      requireId(id);
      if (flags.links === false && flags.link) throw new CliError('give --link or --no-links, not both', EXIT.usage);
      const body = flags.bodyFile === undefined ? undefined : await readBody(flags.bodyFile);
      const links = flags.links === false ? [] : flags.link?.map(requireId);
      const entry = await withClient(api, (client) => client.changelog.update(id, { title: flags.title, body, links }));
      showEntry(output, api.json, entry, 'Updated');
    }),
  );

  const publish = new Command('publish')
    .description('Publish an entry now, or at --publish-at; one already published stays as it is')
    .argument('<id>', 'id of the entry')
    .option('--publish-at <time>', 'publish it at this ISO 8601 time instead of now')
    .option('--complete', 'move the linked items to completed (recorded in their history)')
    .option('--actor <name>', 'who completed the items, for their history');
  changelog.addCommand(
    addApiOptions(publish).action(async (id: string, flags: EntryFlags, self: Command) => {
      const api = apiFlags(self);
      requireId(id);
      const entry = await withClient(api, (client) => client.changelog.publish(id, { publishAt: flags.publishAt, complete: flags.complete, actor: flags.actor }, NOTIFYING_CALL));
      showEntry(output, api.json, entry, entry.state === 'scheduled' ? 'Scheduled' : 'Published');
    }),
  );

  const remove = new Command('delete').description('Delete an entry (its items stay)').argument('<id>', 'id of the entry');
  changelog.addCommand(
    addApiOptions(remove).action(async (id: string, _flags: unknown, self: Command) => {
      const api = apiFlags(self);
      requireId(id);
      const result = await withClient(api, (client) => client.changelog.delete(id));
      if (api.json) return printJson(output, result);
      if (!output.isTty) return printLine(output, [result.id]);
      output.out(`Deleted changelog entry ${result.id}.`);
    }),
  );

  const list = new Command('list')
    .description('List entries, newest publication first (a secret key also lists drafts and scheduled ones)')
    .option('--page <n>', 'page number, from 1')
    .option('--limit <n>', 'entries per page, at most 100 (default 20)');
  changelog.addCommand(
    addApiOptions(list).action(async (flags: { page?: string; limit?: string }, self: Command) => {
      const api = apiFlags(self);
      const query = { page: positiveInteger(flags.page, '--page', 10_000_000), limit: positiveInteger(flags.limit, '--limit', 100) };
      const page = await withClient(api, (client) => client.changelog.list(query));
      if (api.json) return printJson(output, page);
      if (output.isTty && page.items.length === 0) return output.out('No changelog entries yet: `feedback changelog create --title T --body-file F` writes one.');
      printTable(
        output,
        [
          { header: 'ID', value: (e: ChangelogEntry) => e.id },
          { header: 'STATE', value: (e: ChangelogEntry) => e.state },
          { header: 'PUBLISHED', value: (e: ChangelogEntry) => (e.publishedAt ? formatTime(e.publishedAt) : '') },
          { header: 'ITEMS', value: (e: ChangelogEntry) => String(e.items.length) },
          { header: 'TITLE', value: (e: ChangelogEntry) => truncate(e.title, 60) },
        ],
        page.items,
      );
    }),
  );
  return changelog;
}

/** An entry after a change: the API's answer with --json, a line when piped, a sentence on a terminal. */
function showEntry(output: Output, json: boolean, entry: ChangelogEntry, verb: string): void {
  if (json) return printJson(output, { entry });
  if (!output.isTty) return printLine(output, [entry.id, entry.state, entry.publishedAt ?? '', entry.title]);
  const when = entry.publishedAt ? ` (${entry.state}, ${formatTime(entry.publishedAt)})` : ' (draft)';
  output.out(`${verb} changelog entry ${entry.id}${when}: ${entry.title}`);
  for (const item of entry.items) output.out(`  ${item.id}  ${item.status}  ${item.title}`);
}

/** The body file's text; `-` is standard input. A file that cannot be read is a usage error. */
async function readBody(file: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read the body file ${file}: ${error.code ?? error.message}`, EXIT.usage);
  });
}
