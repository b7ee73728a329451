import { Command, Option } from 'commander';
import type { FeedbackListItem } from '@feedbackd/sdk';
import { FEEDBACK_STATUSES, FEEDBACK_TYPES, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, SORT_ORDERS } from '@feedbackd/sdk/constants';
import type { SortBy } from '@feedbackd/sdk/contract';
import { addApiOptions, apiFlags } from '../api-options.js';
import { enumList, positiveInteger } from '../flag-values.js';
import { withClient } from '../api-call.js';
import { formatTime, oneLine, printJson, printLine, printTable, truncate, type Output } from '../output.js';

/** Titles longer than this are cut in the terminal table (never in piped or JSON output). */
const TITLE_WIDTH = 60;

interface ListFlags {
  status?: string;
  type?: string;
  search?: string;
  sort?: SortBy;
  page?: string;
  limit?: string;
  all?: boolean;
}

export function listCommand(output: Output): Command {
  const command = new Command('list')
    .description('List feedback, newest first unless --sort says otherwise, one page at a time (or --all)')
    .option('--status <list>', `only these statuses, separated by commas (${FEEDBACK_STATUSES.join(', ')})`)
    .option('--type <list>', `only these types, separated by commas (${FEEDBACK_TYPES.join(', ')})`)
    .option('--search <text>', 'only items whose title or description contains this text (any case)')
    .addOption(new Option('--sort <order>', 'order of the list (server default: newest)').choices(SORT_ORDERS))
    .option('--page <n>', 'page to show, from 1 (default 1)')
    .option('--limit <n>', `items per page, 1 to ${PAGE_SIZE_MAX} (default ${PAGE_SIZE_DEFAULT}); with --all, the size of each request`)
    .addOption(new Option('--all', 'every matching item: fetches page after page').conflicts('page'));
  addApiOptions(command).action(async (flags: ListFlags, self: Command) => {
    const api = apiFlags(self);
    const query = {
      status: enumList(flags.status, '--status', FEEDBACK_STATUSES),
      type: enumList(flags.type, '--type', FEEDBACK_TYPES),
      search: flags.search,
      sortBy: flags.sort,
      limit: positiveInteger(flags.limit, '--limit', PAGE_SIZE_MAX),
    };
    const page = positiveInteger(flags.page, '--page', 10_000_000);

    if (flags.all) {
      const items = await withClient(api, async (client) => {
        const all: FeedbackListItem[] = [];
        for await (const item of client.feedback.listAll(query)) {
          all.push(item);
          // Piped, each line goes out as soon as its page arrives.
          if (!api.json && !output.isTty) printLine(output, itemLine(item));
        }
        return all;
      });
      if (api.json) return printJson(output, { items, total: items.length });
      if (output.isTty) {
        printItems(output, items);
        output.err(`${count(items.length, 'item')}`);
      }
      return;
    }

    const result = await withClient(api, (client) => client.feedback.list({ ...query, page }));
    if (api.json) return printJson(output, result);
    if (result.items.length === 0 && result.page > result.totalPages && result.total > 0) {
      const pages = count(result.totalPages, 'page');
      output.err(`Page ${result.page} is past the end: ${count(result.total, 'item')} match, on ${pages}; the last is ${listCommandLine(self, result.totalPages)}`);
      return;
    }
    printItems(output, result.items);
    // Nothing matches at all: "No feedback matches." says it all, whatever page was asked for.
    if (output.isTty && result.total > 0) {
      const next = result.page < result.totalPages ? `; next: ${listCommandLine(self, result.page + 1)}` : '';
      output.err(`page ${result.page} of ${Math.max(result.totalPages, 1)}, ${count(result.total, 'item')} in all${next}`);
    }
  });
  return command;
}

/**
 * The `feedback list` command that shows `page` of the same list: every filter, sort and size typed
 * (and --url when it was typed), quoted for a POSIX shell. The key is never repeated.
 */
function listCommandLine(command: Command, page: number): string {
  const words = ['feedback', 'list'];
  for (const flag of ['status', 'type', 'search', 'sort', 'limit'] as const) {
    const value: unknown = command.getOptionValue(flag);
    if (typeof value === 'string') words.push(`--${flag}`, shellQuote(value));
  }
  // --url may have been typed before the command name (`feedback --url … list`).
  const url: unknown = [command, command.parent].find((typed) => typed?.getOptionValueSource('url') === 'cli')?.getOptionValue('url');
  if (typeof url === 'string') words.push('--url', shellQuote(url));
  words.push('--page', String(page));
  return words.join(' ');
}

/** A word as a POSIX shell reads it back: bare when it is safe, else in single quotes. */
function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** An item for scripts: id, status, type, votes, comments, title (`show` starts with the same line). */
export function itemLine(item: FeedbackListItem): (string | number)[] {
  return [item.id, item.status, item.type, item.voteCount, item.commentCount, item.title];
}

function printItems(output: Output, items: readonly FeedbackListItem[]): void {
  if (output.isTty && items.length === 0) return output.out('No feedback matches.');
  if (!output.isTty) {
    for (const item of items) printLine(output, itemLine(item));
    return;
  }
  printTable(
    output,
    [
      { header: 'ID', value: (item: FeedbackListItem) => item.id },
      { header: 'STATUS', value: (item: FeedbackListItem) => item.status },
      { header: 'TYPE', value: (item: FeedbackListItem) => item.type },
      { header: 'VOTES', value: (item: FeedbackListItem) => String(item.voteCount) },
      { header: 'COMMENTS', value: (item: FeedbackListItem) => String(item.commentCount) },
      { header: 'CREATED', value: (item: FeedbackListItem) => formatTime(item.createdAt) },
      { header: 'TITLE', value: (item: FeedbackListItem) => truncate(oneLine(item.title), TITLE_WIDTH) },
    ],
    items,
  );
}

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
