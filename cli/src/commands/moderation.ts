import { Command } from 'commander';
// The constants' own entry point: `--help` defines this command without loading the contract's schemas (zod).
import { ADDRESS_BLOCK_DAYS, BLOCK_DAYS_MAX } from '@feedbackd/sdk/constants';
import type { ApproveHeldResult, HeldPost, PostingBlock, RejectHeldResult } from '@feedbackd/sdk/contract';
import { addApiOptions, apiFlags } from '../api-options.js';
import { withClient } from '../api-call.js';
import { CliError, EXIT } from '../exit-codes.js';
import { wholeNumber } from '../flag-values.js';
import { formatTime, oneLine, printJson, printLine, printTable, truncate, type Output } from '../output.js';

/**
 * `feedback moderation list|approve|reject|blocks|unblock`: the project's moderation queue and
 * its blocks through the API with a secret key (docs/moderation.md). Which posts wait is `feedback board moderation`'s setting.
 * Each prints for people on a terminal, tab-separated lines when piped, the API's answer with --json.
 */
export function moderationCommand(output: Output): Command {
  const moderation = new Command('moderation').description("The posts held for the team's approval: list them, approve or reject them; list and lift blocks (needs a secret key)");

  const list = new Command('list').description('List the held submissions, comments and edits of comments, oldest first');
  moderation.addCommand(
    addApiOptions(list).action(async (_flags: unknown, self: Command) => {
      const api = apiFlags(self);
      const items = await withClient(api, (client) => client.moderation.list());
      if (api.json) return printJson(output, { items });
      if (output.isTty && items.length === 0) return output.out('Nothing is waiting for the team.');
      printTable(
        output,
        [
          { header: 'ID', value: (p: HeldPost) => p.id },
          // An edit of a published comment (which keeps its text until approved) reads as such.
          { header: 'KIND', value: (p: HeldPost) => (p.editOf ? 'edit' : p.kind) },
          { header: 'WHY', value: (p: HeldPost) => p.reason },
          { header: 'AUTHOR', value: (p: HeldPost) => p.author?.externalId ?? '(anonymous)' },
          { header: 'HELD', value: (p: HeldPost) => formatTime(p.createdAt) },
          { header: 'TEXT', value: (p: HeldPost) => truncate(oneLine(p.title ?? p.content ?? ''), 60) },
        ],
        items,
      );
    }),
  );

  const approve = new Command('approve')
    .description('Approve held posts: each becomes public with its id, and its feedback.created or comment.created webhook goes out (an edit replaces its comment\'s text: comment.updated)')
    .argument('<id...>', 'ids of held posts (see `feedback moderation list`)');
  moderation.addCommand(
    addApiOptions(approve).action(async (ids: string[], _flags: unknown, self: Command) => {
      const api = apiFlags(self);
      const result = await withClient(api, (client) => client.moderation.approve(checked(ids)));
      if (api.json) return printJson(output, result);
      report(output, result.approved.map((post) => [post.id, 'approved', post.kind]), result);
    }),
  );

  const reject = new Command('reject')
    .description(
      `Reject held posts: each is deleted; with --block its author can no longer post: an end user until the block is lifted, an anonymous caller's address (its voter key) for ${ADDRESS_BLOCK_DAYS} days`,
    )
    .argument('<id...>', 'ids of held posts (see `feedback moderation list`)')
    .option('--block', "also block each post's author from submitting and commenting")
    .option('--block-days <n>', `how long the blocks last, 1 to ${BLOCK_DAYS_MAX} days (needs --block; default: an end user until lifted, an address ${ADDRESS_BLOCK_DAYS} days)`);
  moderation.addCommand(
    addApiOptions(reject).action(async (ids: string[], flags: { block?: boolean; blockDays?: string }, self: Command) => {
      const api = apiFlags(self);
      const blockDays = flags.blockDays === undefined ? undefined : wholeNumber(flags.blockDays, '--block-days', { min: 1, max: BLOCK_DAYS_MAX });
      if (blockDays !== undefined && !flags.block) throw new CliError('--block-days needs --block', EXIT.usage);
      const result = await withClient(api, (client) => client.moderation.reject(checked(ids), { block: flags.block, blockDays }));
      if (api.json) return printJson(output, result);
      report(output, result.rejected.map((post) => [post.id, 'rejected', post.kind]), result);
      if (output.isTty && flags.block) output.out(`${result.blocked} author(s) blocked (see \`feedback moderation blocks\`)`);
    }),
  );

  const blocks = new Command('blocks').description('List the blocks in force, newest first: id, whom each names (an end user or an address), since and until when, and the post that made it');
  moderation.addCommand(
    addApiOptions(blocks).action(async (_flags: unknown, self: Command) => {
      const api = apiFlags(self);
      const items = await withClient(api, (client) => client.moderation.blocks());
      if (api.json) return printJson(output, { items });
      if (output.isTty && items.length === 0) return output.out('No author is blocked.');
      printTable(
        output,
        [
          { header: 'ID', value: (b: PostingBlock) => b.id },
          { header: 'BLOCKED', value: (b: PostingBlock) => (b.scope === 'endUser' ? b.author?.externalId ?? '(end user)' : '(an address)') },
          { header: 'SINCE', value: (b: PostingBlock) => formatTime(b.createdAt) },
          { header: 'UNTIL', value: (b: PostingBlock) => (b.expiresAt === null ? 'lifted' : formatTime(b.expiresAt)) },
          { header: 'POST', value: (b: PostingBlock) => truncate(oneLine(b.excerpt ?? ''), 60) },
        ],
        items,
      );
    }),
  );

  const unblock = new Command('unblock').description('Lift a block: its author may post again at once').argument('<id>', 'id of the block (see `feedback moderation blocks`)');
  moderation.addCommand(
    addApiOptions(unblock).action(async (id: string, _flags: unknown, self: Command) => {
      const api = apiFlags(self);
      if (id.trim() === '') throw new CliError('<id> must not be empty: give the id of a block (see `feedback moderation blocks`)', EXIT.usage);
      const result = await withClient(api, (client) => client.moderation.unblock(id));
      if (api.json) return printJson(output, result);
      if (!output.isTty) return printLine(output, [result.id, 'unblocked']);
      output.out(`Lifted block ${result.id}: its author may post again.`);
    }),
  );
  return moderation;
}

function checked(ids: string[]): string[] {
  if (ids.some((id) => id.trim() === '')) throw new CliError('<id...> must not be empty: give ids of held posts (see `feedback moderation list`)', EXIT.usage);
  return ids;
}

/**
 * One line per post decided, then the ids no longer held. Nothing decided at all is "not found"
 * (exit 3), as `feedback show` of an unknown id; some decided is success.
 */
function report(output: Output, lines: string[][], result: ApproveHeldResult | RejectHeldResult): void {
  for (const line of lines) printLine(output, line);
  for (const id of result.notFound) output.err(`not held: ${id} (decided already, or not a held post of this project)`);
  if (lines.length === 0) throw new CliError('none of these ids is held', EXIT.notFound);
}
