import { Argument, Command, Option } from 'commander';
import { migrateDown, migrateUp, migrationStatus } from '@feedbackd/server';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { withDatabase } from '../operator.js';
import { printJson, printTable, type Output } from '../output.js';

interface MigrateFlags extends DatabaseFlags {
  json?: boolean;
}

export function migrateCommand(output: Output): Command {
  const command = new Command('migrate')
    .description('Apply (up), revert the last (down) or list (status) database migrations')
    .addArgument(new Argument('[action]', 'what to do').choices(['up', 'down', 'status']).default('up'))
    .addOption(new Option('--json', 'print the result as JSON'));
  addDatabaseOptions(command).action(async (action: 'up' | 'down' | 'status', flags: MigrateFlags) =>
    withDatabase(databaseLocation(flags), async (orm) => {
      if (action === 'status') {
        const status = await migrationStatus(orm);
        if (flags.json) return printJson(output, status);
        const rows = [
          ...status.executed.map((m) => ({ name: m.name, state: `applied ${m.executedAt}` })),
          ...status.pending.map((name) => ({ name, state: 'pending' })),
        ];
        printTable(
          output,
          [
            { header: 'MIGRATION', value: (row: { name: string }) => row.name },
            { header: 'STATE', value: (row: { state: string }) => row.state },
          ],
          rows,
        );
        return;
      }
      const names = action === 'up' ? await migrateUp(orm) : await migrateDown(orm);
      if (flags.json) return printJson(output, action === 'up' ? { applied: names } : { reverted: names });
      if (names.length === 0) return output.out(action === 'up' ? 'The database is up to date.' : 'No migration to revert.');
      for (const name of names) output.out(`${action === 'up' ? 'applied' : 'reverted'} ${name}`);
    }),
  );
  return command;
}
