import { Command, Option } from 'commander';
import { addApiOptions, apiFlags } from '../api-options.js';
import { requireId } from '../flag-values.js';
import { NOTIFYING_CALL, withClient } from '../api-call.js';
import { printJson, printLine, type Output } from '../output.js';
import { count } from './list.js';

/** The display name of a team comment when neither --team nor --user is given. */
export const DEFAULT_TEAM_NAME = 'Team';

interface CommentFlags {
  team?: string;
  user?: string;
  replyTo?: string;
  internal?: boolean;
  pin?: boolean;
}

/**
 * `feedback comment <id> <text>`: comments on an item (docs/cli.md). As an end user (`--user`,
 * which a public key may do), or as the team (the default; a secret key), then also as an
 * internal note (`--internal`) or the pinned answer (`--pin`); `--reply-to` makes it a reply.
 */
export function commentCommand(output: Output): Command {
  const command = new Command('comment')
    .description(`Comment on an item, or reply to a comment: as an end user (--user, any key) or as the team (signed "${DEFAULT_TEAM_NAME}" unless --team names it; a secret key)`)
    .argument('<id>', 'id of the feedback item')
    .argument('<text>', 'the comment (1 to 4,000 characters for an end user, 10,000 for the team)')
    .addOption(new Option('--user <externalId>', 'comment as this end user (created if new); works with a public key'))
    .addOption(new Option('--team <name>', 'comment as the team, under this display name (secret key)').conflicts('user'))
    .addOption(new Option('--reply-to <commentId>', 'reply to this comment (a reply to a reply joins its thread)'))
    .addOption(new Option('--internal', "a private note of the team: never shown to public keys nor counted (secret key)").conflicts('user'))
    .addOption(new Option('--pin', "pin it as the item's official answer, shown first; unpins the previous one (secret key)").conflicts(['user', 'internal']))
    .addHelpText(
      'after',
      `
Examples:
  $ feedback comment 0192… "Same here on Android" --user user-42           # an end user, public key
  $ feedback comment 0192… "Thanks!" --user user-7 --reply-to 0193…         # a reply
  $ feedback comment 0192… "Shipped in 2.4" --team Support --pin            # the official answer
  $ feedback comment 0192… "Big customer, see CRM" --internal               # a note only the team sees`,
    );
  addApiOptions(command).action(async (id: string, text: string, flags: CommentFlags, self: Command) => {
    const api = apiFlags(self);
    requireId(id);
    if (flags.replyTo !== undefined) requireId(flags.replyTo);
    const author = flags.user !== undefined ? { endUser: { externalId: flags.user } } : { team: { name: flags.team ?? DEFAULT_TEAM_NAME } };
    const result = await withClient(api, (client) =>
      client.comments.create(id, { content: text, ...author, parentId: flags.replyTo, internal: flags.internal, pin: flags.pin }, NOTIFYING_CALL),
    );
    if (api.json) return printJson(output, result);
    // Piped: the new comment's id alone, so that `cid=$(feedback comment ...)` works.
    if (!output.isTty) return printLine(output, [result.comment.id]);
    const by = result.comment.author?.isTeam ? `${result.comment.author.name ?? DEFAULT_TEAM_NAME} (team)` : (flags.user ?? 'an end user');
    const what = result.comment.internal ? ' (an internal note)' : result.comment.isPinned ? ' (pinned)' : result.comment.parentId ? ' (a reply)' : '';
    output.out(`Commented on ${id} as ${by}${what}; it now has ${count(result.commentCount, 'comment')}. Comment id: ${result.comment.id}`);
  });
  return command;
}
