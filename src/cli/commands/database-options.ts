import type { Command } from 'commander';

/** The flags every command that opens the database takes. */
export function withDatabaseOptions(command: Command): Command {
  return command
    .option('--database-url <url>', 'PostgreSQL connection string (env DATABASE_URL); unset uses embedded PGlite')
    .option('--data-dir <dir>', 'PGlite data directory (env DATA_DIR, default ./data)');
}
