import { Option, type Command } from 'commander';
import type { DatabaseLocation } from '@feedbackd/server';

export const DEFAULT_DATA_DIR = './.feedback';

/** `--data-dir` and `--database-url`, shared by every command that opens the database. */
export function addDatabaseOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--data-dir <dir>', 'directory of the embedded database (used when no database URL is given)')
        .env('FEEDBACK_DATA_DIR')
        .default(DEFAULT_DATA_DIR),
    )
    .addOption(new Option('--database-url <url>', 'PostgreSQL URL to use instead of the embedded database').env('DATABASE_URL'));
}

/** The parsed values of the options addDatabaseOptions adds. */
export interface DatabaseFlags {
  dataDir: string;
  databaseUrl?: string;
}

export function databaseLocation(options: DatabaseFlags): DatabaseLocation {
  return { dataDir: options.dataDir, databaseUrl: options.databaseUrl || undefined };
}
