import { Command } from 'commander';
import { addApiOptions, apiFlags } from '../api-options.js';
import { requireId } from '../flag-values.js';
import { withClient } from '../api-call.js';
import { CliError, EXIT } from '../exit-codes.js';
import { printJson, printLine, type Output } from '../output.js';
import { count } from './list.js';

interface DeleteFlags {
  comment?: string;
  user?: string;
  userToken?: string;
}

/** `feedback delete <id>`: deletes an item, or with --comment one of its comments (secret key). */
export function deleteCommand(output: Output): Command {
  const command = new Command('delete')
    .description('Delete an item with its votes, comments and history, or with --comment only that comment (needs a secret key)')
    .argument('<id>', 'id of the feedback item')
    .option('--comment <commentId>', 'delete only this comment of the item, with its replies')
    .option('--user <externalId>', "with --comment: delete it as its author, this end user, until the team has replied to it (a public key also needs --user-token)")
    .option('--user-token <token>', "with --comment and a public key: the end user's token, signed with the project's identity secret (docs/api.md, \"Comments\"); spent by this call");
  addApiOptions(command).action(async (id: string, flags: DeleteFlags, self: Command) => {
    const api = apiFlags(self);
    requireId(id);
    if (flags.comment !== undefined) {
      const commentId = flags.comment;
      if (commentId.trim() === '') throw new CliError('--comment must not be empty: give the id of a comment (see `feedback show <id>`)', EXIT.usage);
      const userToken = flags.userToken;
      const result = await withClient(api, (client) => client.comments.delete(id, commentId, { endUserId: flags.user, ...(userToken === undefined ? {} : { userToken }) }));
      if (api.json) return printJson(output, result);
      if (!output.isTty) return printLine(output, [result.id]);
      const replies = result.repliesDeleted > 0 ? ` and ${result.repliesDeleted === 1 ? '1 reply' : `${result.repliesDeleted} replies`}` : '';
      return output.out(`Deleted comment ${result.id}${replies} of ${id}; it now has ${count(result.commentCount, 'comment')}.`);
    }
    if (flags.user !== undefined || flags.userToken !== undefined) throw new CliError(`${flags.user !== undefined ? '--user' : '--user-token'} goes with --comment: an end user deletes their own comment, never an item`, EXIT.usage);
    const result = await withClient(api, (client) => client.admin.delete(id));
    if (api.json) return printJson(output, result);
    // Piped: the deleted id alone.
    if (!output.isTty) return printLine(output, [result.id]);
    output.out(`Deleted ${result.id}.`);
  });
  return command;
}
