import { controlSocketPath, viaControlSocket } from '../admin/control-socket.ts';
import { runAdminCommand, type AdminArgs, type AdminCommand } from '../admin/commands.ts';
import type { Config } from '../config.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';

/**
 * Runs an admin command where the data is: through a running server's control socket when one
 * holds the embedded database, else against the database directly (PostgreSQL is shared by
 * any number of processes, so the CLI works there while servers run too).
 */
export async function runAdmin<C extends AdminCommand>(config: Config, command: C, args: AdminArgs<C>): Promise<unknown> {
  const socket = controlSocketPath(config);
  const remote = socket ? await viaControlSocket(socket, command, args) : undefined;
  if (remote) return remote.result;
  const db = await openDatabase(config);
  try {
    await migrate(db, await loadMigrations());
    return await runAdminCommand(db, command, args);
  } finally {
    await db.close();
  }
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
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  console.log([line(columns), ...cells.map(line)].join('\n'));
}
