import { Command } from 'commander';
import type { SimilarFeedbackItem } from '@feedbackd/sdk';
import { FEEDBACK_STATUSES, SIMILAR_LIMIT_DEFAULT, SIMILAR_LIMIT_MAX } from '@feedbackd/sdk/constants';
import { addApiOptions, apiFlags } from '../api-options.js';
import { enumList, positiveInteger } from '../flag-values.js';
import { withClient } from '../api-call.js';
import { oneLine, printJson, printLine, printTable, truncate, type Output } from '../output.js';

/** Titles longer than this are cut in the terminal table (never in piped or JSON output). */
const TITLE_WIDTH = 60;

interface SimilarFlags {
  limit?: string;
  status?: string;
  user?: string;
}

export function similarCommand(output: Output): Command {
  const command = new Command('similar')
    .description('The items whose titles are closest to a title, closest first: look before you submit a duplicate')
    .argument('<title>', 'the title to compare with (in quotes when it has spaces)')
    .option('--limit <n>', `how many items at most, 1 to ${SIMILAR_LIMIT_MAX} (default ${SIMILAR_LIMIT_DEFAULT})`)
    .option('--status <list>', `only these statuses, separated by commas (${FEEDBACK_STATUSES.join(', ')}); default every status`)
    .option('--user <externalId>', "report whether this end user has voted on each item (the JSON's userHasVoted)");
  addApiOptions(command).action(async (title: string, flags: SimilarFlags, self: Command) => {
    const api = apiFlags(self);
    const params = {
      limit: positiveInteger(flags.limit, '--limit', SIMILAR_LIMIT_MAX),
      status: enumList(flags.status, '--status', FEEDBACK_STATUSES),
      endUserId: flags.user,
    };
    const items = await withClient(api, (client) => client.feedback.similar(title, params));
    if (api.json) return printJson(output, { items });
    // Piped: similarity as the API gives it (0 to 1), then id, status, votes, title.
    if (!output.isTty) {
      for (const item of items) printLine(output, [item.similarity, item.id, item.status, item.voteCount, item.title]);
      return;
    }
    if (items.length === 0) return output.out('No similar feedback.');
    printTable(
      output,
      [
        { header: 'SIMILAR', value: (item: SimilarFeedbackItem) => `${Math.round(item.similarity * 100)}%` },
        { header: 'ID', value: (item: SimilarFeedbackItem) => item.id },
        { header: 'STATUS', value: (item: SimilarFeedbackItem) => item.status },
        { header: 'VOTES', value: (item: SimilarFeedbackItem) => String(item.voteCount) },
        { header: 'TITLE', value: (item: SimilarFeedbackItem) => truncate(oneLine(item.title), TITLE_WIDTH) },
      ],
      items,
    );
  });
  return command;
}
