import { controlSocketAnswers, controlSocketPath, viaControlSocket } from '../admin/control-socket.ts';
import { runAdminCommand, type AdminArgs, type AdminCommand, type AdminServices } from '../admin/commands.ts';
import { systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { parseAllowList } from '../net/allow-list.ts';
import { SafeFetch } from '../net/safe-fetch.ts';
import { ApError } from '../protocol/errors.ts';
import { Crawler } from '../registry/crawler/crawler.ts';

/** Runs one admin command in a session; through a socket the result has been through JSON. */
export type AdminRunner = <C extends AdminCommand>(command: C, args: AdminArgs<C>) => Promise<unknown>;

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
      if (!remote) throw new ApError('service_unavailable', `The server holding ${config.dataDir} stopped answering on ${socket}; run the command again.`);
      return remote.result;
    });
  }
  const db = await openDatabase(config);
  const local = localServices(config, db);
  try {
    await migrate(db, await loadMigrations());
    return await use((command, args) => runAdminCommand(db, command, args, local.services));
  } finally {
    try {
      await local.close();
    } finally {
      await db.close();
    }
  }
}

/** Runs one admin command (see withAdmin). */
export async function runAdmin<C extends AdminCommand>(config: Config, command: C, args: AdminArgs<C>): Promise<unknown> {
  return withAdmin(config, (run) => run(command, args));
}

/** The CLI's own services, built on first use: a crawler with a fetch client from the configuration. */
function localServices(config: Config, db: Database): { services: AdminServices; close(): Promise<void> } {
  let fetcher: SafeFetch | undefined;
  let crawler: Crawler | undefined;
  return {
    services: {
      crawler() {
        fetcher ??= new SafeFetch({ allow: parseAllowList(config.fetchAllow) });
        crawler ??= new Crawler({ db, fetcher, clock: systemClock, config: config.crawler });
        return crawler;
      },
    },
    close: async () => fetcher?.close(),
  };
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
