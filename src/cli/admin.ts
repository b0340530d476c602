import type { AdminArgs, AdminCommand, AdminRunner } from '../admin/commands.ts';
import { controlSocketAnswers, controlSocketPath, viaControlSocket } from '../admin/control-client.ts';
import { loadConfig, type Config, type ConfigFlags } from '../config.ts';
import { ApError } from '../protocol/errors.ts';

/**
 * Runs admin commands where the data is: through a running server's control socket when one
 * holds the embedded database, else against the database directly (PostgreSQL is shared by
 * any number of processes, so the CLI works there while servers run too). The choice is made
 * once; without a server the database is opened and migrated once for every command `use` runs,
 * and closed when it is done.
 */
export async function withAdmin<T>(config: Config, use: (run: AdminRunner) => Promise<T>): Promise<T> {
  const socket = controlSocketPath(config);
  if (socket && (await controlSocketAnswers(socket))) {
    return use(async (command, args) => {
      const remote = await viaControlSocket(socket, command, args);
      if (!remote)
        throw new ApError(
          'service_unavailable',
          `The server holding ${config.dataDir} stopped answering on ${socket}; run the command again.`,
        );
      return remote.result;
    });
  }
  // Loaded only here: the commands, the crawler and the database engines take most of a second to
  // load, which a command the server runs for us need not pay.
  const { withLocalAdmin } = await import('./local-admin.ts');
  return withLocalAdmin(config, use);
}

/** Runs one admin command (see withAdmin). */
export async function runAdmin<C extends AdminCommand>(
  config: Config,
  command: C,
  args: AdminArgs<C>,
): Promise<unknown> {
  return withAdmin(config, (run) => run(command, args));
}

/**
 * What most admin subcommands do: run `command` against the configuration the flags name, then
 * print its answer as `columns`, or as JSON with `--json`.
 */
export async function runAndPrint<C extends AdminCommand>(
  flags: ConfigFlags & { json?: boolean },
  command: C,
  args: AdminArgs<C>,
  columns: string[],
): Promise<void> {
  print(await runAdmin(loadConfig(flags), command, args), flags.json ?? false, columns);
}

/** Prints rows as aligned columns, or JSON with `--json`. */
export function print(value: unknown, asJson: boolean, columns?: string[]): void {
  if (asJson || !columns) {
    console.log(JSON.stringify(value, null, 2));
    return;
  }
  const rows = (Array.isArray(value) ? value : [value]) as Record<string, unknown>[];
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : v instanceof Date ? v.toISOString() : String(v));
  const cells = rows.map((row) => columns.map((c) => cell(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log([line(columns), ...cells.map(line)].join('\n'));
}
