import { Command } from 'commander';
import { addApiOptions, apiFlags } from '../api-options.js';
import { requireId } from '../flag-values.js';
import { withClient } from '../api-call.js';
import { printJson, printLine, type Output } from '../output.js';
import { count } from './list.js';

interface VoteFlags {
  user?: string;
  check?: boolean;
}

export function voteCommand(output: Output): Command {
  const command = new Command('vote')
    .description('Toggle a vote on an item: the first call adds it, the next removes it (--check only reports)')
    .argument('<id>', 'id of the feedback item')
    .option('--user <externalId>', 'vote as this end user (created if new); without it the vote is anonymous, by your IP address')
    .option('--check', 'do not vote: only tell whether the voter has voted, and the count');
  addApiOptions(command).action(async (id: string, flags: VoteFlags, self: Command) => {
    const api = apiFlags(self);
    requireId(id);
    const result = await withClient(api, (client) =>
      flags.check
        ? client.votes.get(id, { endUserId: flags.user })
        : client.votes.toggle(id, { endUser: flags.user === undefined ? undefined : { externalId: flags.user } }),
    );
    if (api.json) return printJson(output, result);
    // Piped: "voted<TAB>3" or "not-voted<TAB>2", so that `set -- $(feedback vote ...)` splits it.
    if (!output.isTty) return printLine(output, [result.voted ? 'voted' : 'not-voted', result.voteCount]);
    output.out(`${sentence(flags, result.voted, id)}; it ${flags.check ? 'has' : 'now has'} ${count(result.voteCount, 'vote')}.`);
  });
  return command;
}

/** What happened, for people: who (the --user, or you by IP address) and whether they voted. */
function sentence(flags: VoteFlags, voted: boolean, id: string): string {
  const user = flags.user;
  if (flags.check) {
    if (user === undefined) return `You ${voted ? 'have' : 'have not'} voted for ${id} (anonymously, by IP address)`;
    return `${user} ${voted ? 'has' : 'has not'} voted for ${id}`;
  }
  if (user === undefined) return voted ? `Voted for ${id} anonymously (by IP address)` : `Removed your anonymous vote on ${id}`;
  return voted ? `${user} voted for ${id}` : `Removed the vote of ${user} on ${id}`;
}
