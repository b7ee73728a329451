import { Command } from 'commander';
import type { Comment, FeedbackDetail, FeedbackListItem } from '@feedbackd/sdk';
import { addApiOptions, apiFlags } from '../api-options.js';
import { requireId } from '../flag-values.js';
import { withClient } from '../api-call.js';
import { formatTime, printFields, printJson, printLine, type Output } from '../output.js';
import { itemLine } from './list.js';

interface ShowFlags {
  user?: string;
}

export function showCommand(output: Output): Command {
  const command = new Command('show')
    .description('Show one feedback item with its comments')
    .argument('<id>', 'id of the feedback item')
    .option('--user <externalId>', 'end user for whom to tell whether they voted (userHasVoted)');
  addApiOptions(command).action(async (id: string, flags: ShowFlags, self: Command) => {
    const api = apiFlags(self);
    requireId(id);
    const feedback = await withClient(api, (client) => client.feedback.get(id, { endUserId: flags.user }));
    if (api.json) return printJson(output, { feedback });
    if (!output.isTty) {
      // The item as `list` prints it, then one line per comment, oldest first.
      printLine(output, itemLine(feedback));
      for (const comment of feedback.comments) printLine(output, commentLine(comment));
      return;
    }
    printDetail(output, feedback, flags.user);
  });
  return command;
}

/** A comment for scripts: id, created, author name, author role (team, user or unknown), text. */
export function commentLine(comment: Comment): string[] {
  return [comment.id, comment.createdAt, comment.author?.name ?? '', authorRole(comment), comment.content];
}

function authorRole(comment: Comment): 'team' | 'user' | 'unknown' {
  if (!comment.author) return 'unknown';
  return comment.author.isTeam ? 'team' : 'user';
}

/** The fields of an item, for people (submit prints these too). */
export function itemFields(output: Output, item: FeedbackListItem, options: { withTitle?: boolean; votedNote?: string } = {}): void {
  printFields(output, [
    ['ID', item.id],
    ...(options.withTitle === false ? [] : [['Title', item.title] as [string, string]]),
    ['Type', item.type],
    ['Status', item.status],
    ['Votes', `${item.voteCount}${options.votedNote ?? ''}`],
    ['Comments', String(item.commentCount)],
    ['Author', item.endUser ? (item.endUser.name ?? '(no name)') : 'anonymous'],
    ['Created', formatTime(item.createdAt)],
  ]);
}

function printDetail(output: Output, item: FeedbackDetail, user: string | undefined): void {
  output.out(item.title);
  output.out('');
  const votedNote = user === undefined ? '' : item.userHasVoted ? ` (${user} voted)` : ` (${user} has not voted)`;
  itemFields(output, item, { withTitle: false, votedNote });
  if (item.description) {
    output.out('');
    for (const line of item.description.split(/\r?\n/)) output.out(`  ${line}`.trimEnd());
  }
  output.out('');
  if (item.comments.length === 0) {
    output.out('No comments.');
    return;
  }
  output.out(`Comments (${item.comments.length}):`);
  for (const comment of item.comments) {
    const author = comment.author ? `${comment.author.name ?? '(no name)'}${comment.author.isTeam ? ' (team)' : ''}` : '(unknown author)';
    output.out('');
    output.out(`  ${author}, ${formatTime(comment.createdAt)}`);
    for (const line of comment.content.split(/\r?\n/)) output.out(`    ${line}`.trimEnd());
  }
}
