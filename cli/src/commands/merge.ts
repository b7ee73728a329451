import { Command } from 'commander';
import { addApiOptions, apiFlags } from '../api-options.js';
import { requireId } from '../flag-values.js';
import { NOTIFYING_CALL, withClient } from '../api-call.js';
import { printJson, printLine, type Output } from '../output.js';
import { count, itemLine } from './list.js';

/** `feedback merge <duplicateId> <intoId>`: folds a duplicate into another item (secret key). */
export function mergeCommand(output: Output): Command {
  const command = new Command('merge')
    .description('Merge a duplicate into another item: its votes (one per voter) and comments move, and the duplicate is deleted (needs a secret key)')
    .argument('<duplicateId>', 'id of the duplicate, which is deleted')
    .argument('<intoId>', 'id of the item that takes its votes and comments');
  addApiOptions(command).action(async (duplicateId: string, intoId: string, _flags: object, self: Command) => {
    const api = apiFlags(self);
    requireId(duplicateId);
    requireId(intoId);
    const result = await withClient(api, (client) => client.admin.merge(duplicateId, intoId, NOTIFYING_CALL));
    if (api.json) return printJson(output, result);
    // Piped: the merged item as `list` prints it.
    if (!output.isTty) return printLine(output, itemLine(result.feedback));
    const { merged, feedback } = result;
    output.out(
      `Merged ${merged.id} into ${feedback.id}: ${count(merged.votesMoved, 'vote')} and ${count(merged.commentsMoved, 'comment')} moved; ` +
        `it now has ${count(feedback.voteCount, 'vote')} and ${count(feedback.commentCount, 'comment')}.`,
    );
  });
  return command;
}
