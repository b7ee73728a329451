import { Command, Option } from 'commander';
import { addApiOptions, apiFlags } from '../api-options.js';
import { requireId } from '../flag-values.js';
import { withClient } from '../api-call.js';
import { printJson, printLine, type Output } from '../output.js';
import { count } from './list.js';

/** The display name of a team comment when neither --team nor --user is given. */
export const DEFAULT_TEAM_NAME = 'Team';

interface CommentFlags {
  team?: string;
  user?: string;
}

/** `feedback comment <id> <text>`: comments as the team (the default) or as an end user (secret key). */
export function commentCommand(output: Output): Command {
  const command = new Command('comment')
    .description(`Comment on an item as the team (signed "${DEFAULT_TEAM_NAME}" unless --team names it) or as an end user (needs a secret key)`)
    .argument('<id>', 'id of the feedback item')
    .argument('<text>', 'the comment')
    .addOption(new Option('--team <name>', 'comment as the team, under this display name'))
    .addOption(new Option('--user <externalId>', 'comment as this end user (created if new)').conflicts('team'));
  addApiOptions(command).action(async (id: string, text: string, flags: CommentFlags, self: Command) => {
    const api = apiFlags(self);
    requireId(id);
    const author = flags.user !== undefined ? { endUser: { externalId: flags.user } } : { team: { name: flags.team ?? DEFAULT_TEAM_NAME } };
    const result = await withClient(api, (client) => client.admin.addComment(id, { content: text, ...author }));
    if (api.json) return printJson(output, result);
    // Piped: the new comment's id alone, so that `cid=$(feedback comment ...)` works.
    if (!output.isTty) return printLine(output, [result.comment.id]);
    const by = result.comment.author?.isTeam ? `${result.comment.author.name ?? DEFAULT_TEAM_NAME} (team)` : (flags.user ?? 'an end user');
    output.out(`Commented on ${id} as ${by}; it now has ${count(result.commentCount, 'comment')}. Comment id: ${result.comment.id}`);
  });
  return command;
}
