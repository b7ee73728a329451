import { Argument, Command, Option } from 'commander';
import type { MigrationStatus } from '@feedbackd/server';
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
    withDatabase(
      databaseLocation(flags),
      async (orm, server) => {
        if (action === 'status') return printStatus(output, await server.migrationStatus(orm), flags.json);
        const names = action === 'up' ? await server.migrateUp(orm) : await server.migrateDown(orm);
        if (flags.json) return printJson(output, action === 'up' ? { applied: names } : { reverted: names });
        if (names.length === 0) return output.out(action === 'up' ? 'The database is up to date.' : 'No migration to revert.');
        for (const name of names) output.out(`${action === 'up' ? 'applied' : 'reverted'} ${name}`);
      },
      // Only `up` makes a database; status and down on a missing one say so and create nothing.
      action === 'up' ? 'create' : 'present',
    ),
  );
  return command;
}

function printStatus(output: Output, status: MigrationStatus, json: boolean | undefined): void {
  if (json) return printJson(output, status);
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
}
