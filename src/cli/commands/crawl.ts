import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config.ts';
import { normalizeDomain } from '../../protocol/domain.ts';
import { ApError } from '../../protocol/errors.ts';
import type { CrawlReport } from '../../registry/crawler/index.ts';
import { print, withAdmin } from '../admin.ts';
import { withDatabaseOptions } from './database-options.ts';

interface Flags extends ConfigFlags {
  file?: string;
  concurrency: number;
  json?: boolean;
}

/**
 * `ap crawl <domain...>`: crawls domains now, as the queue worker would (the same Crawler), on
 * the running server through its control socket when it holds the database. Every crawl that ran
 * counts as success, whatever the publisher answered; only an unexpected error exits 1.
 */
export function crawlCommand(): Command {
  return withDatabaseOptions(new Command('crawl'))
    .description("Crawl domains now: fetch each one's adagents.json and brand.json and update the registry")
    .argument('[domains...]', 'domains to crawl')
    .option(
      '--file <path>',
      'also crawl the domains in this file, one a line (# comments and blank lines ignored; - reads standard input)',
    )
    .option('--concurrency <n>', 'domains crawled at once', concurrency, 8)
    .option('--json', 'print the crawl reports as JSON')
    .action(async (args: string[], flags: Flags, command: Command) => {
      const domains = await domainsToCrawl(args, flags.file);
      if (domains.length === 0) command.error('error: name the domains to crawl, as arguments or with --file');
      const config = loadConfig(flags);
      const display = new CrawlDisplay(domains.length, {
        json: flags.json ?? false,
        tty: process.stderr.isTTY === true,
        columns: process.stderr.columns,
      });
      const reports: (CrawlReport | undefined)[] = [];
      try {
        await withAdmin(config, async (run) => {
          display.start();
          await eachLimited(domains, flags.concurrency, async (domain, i) => {
            try {
              const report = revive(await run('crawl.domain', { domain }));
              reports[i] = report;
              display.crawled(report);
            } catch (err) {
              display.failed(domain, err);
            }
          });
        });
      } finally {
        display.clear();
      }
      display.finish();
      if (flags.json)
        print(
          reports.filter((r) => r !== undefined),
          true,
        );
      if (display.errors > 0) process.exitCode = 1;
    });
}

function concurrency(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 1000) throw new InvalidArgumentError('a whole number from 1 to 1000');
  return n;
}

/** The arguments then the file's lines, normalized, each once; an invalid one stops the command before any crawl. */
async function domainsToCrawl(args: string[], file: string | undefined): Promise<string[]> {
  const named: { input: string; where?: string }[] = args.map((input) => ({ input }));
  if (file !== undefined) {
    const content = file === '-' ? await text(process.stdin) : await readFile(file, 'utf8');
    content.split(/\r?\n/).forEach((line, i) => {
      const input = line.replace(/#.*/, '').trim();
      if (input !== '') named.push({ input, where: `${file === '-' ? 'standard input' : file}, line ${i + 1}` });
    });
  }
  const domains = new Set<string>();
  for (const { input, where } of named) {
    try {
      domains.add(normalizeDomain(input));
    } catch (err) {
      if (err instanceof ApError && where)
        throw new ApError(err.code, `${where}: ${err.message}`, { details: err.details });
      throw err;
    }
  }
  return [...domains];
}

/** Through the control socket a report has been through JSON: its date is a string, an undefined problem is gone. */
function revive(value: unknown): CrawlReport {
  const report = value as Omit<CrawlReport, 'nextCrawlAt' | 'problem'> & {
    nextCrawlAt: Date | string;
    problem?: string | null;
  };
  return { ...report, problem: report.problem ?? undefined, nextCrawlAt: new Date(report.nextCrawlAt) };
}

/** Runs `fn` on every item, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/**
 * What the operator sees. On a terminal, one line on stderr rewritten as crawls finish; otherwise
 * (logs, pipes, tests) one line per domain on stdout. Then a summary. With `--json` stdout holds
 * only the reports, so the summary and any error go to stderr.
 */
class CrawlDisplay {
  readonly counts = { found: 0, absent: 0, invalid: 0, transient: 0 };
  errors = 0;
  private events = 0;
  private done = 0;
  private last = '';
  private readonly total: number;
  private readonly options: { json: boolean; tty: boolean; columns: number | undefined };

  constructor(total: number, options: { json: boolean; tty: boolean; columns: number | undefined }) {
    this.total = total;
    this.options = options;
  }

  start(): void {
    this.redraw();
  }

  crawled(report: CrawlReport): void {
    this.counts[report.adagents]++;
    this.events += report.events;
    this.finished(report.domain);
    const detail = report.unchanged
      ? 'unchanged since the last crawl'
      : report.adagents === 'found'
        ? `${plural(report.properties, 'property', 'properties')}, ${plural(report.agents, 'agent')}, ${plural(report.events, 'event')}`
        : (report.problem ?? '');
    if (!this.options.tty && !this.options.json)
      console.log(`${report.domain}  ${report.adagents}  ${detail}`.trimEnd());
  }

  failed(domain: string, err: unknown): void {
    this.errors++;
    this.finished(domain);
    const message =
      err instanceof ApError ? `${err.message} (${err.code})` : err instanceof Error ? err.message : String(err);
    const line = `${domain}  error  ${message}`;
    if (this.options.tty) {
      this.clear();
      console.error(line);
      this.redraw();
    } else if (this.options.json) console.error(line);
    else console.log(line);
  }

  finish(): void {
    const { found, absent, invalid, transient } = this.counts;
    const errors = this.errors > 0 ? `, ${plural(this.errors, 'error')}` : '';
    const summary = `Crawled ${plural(this.total, 'domain')}: ${found} found, ${absent} absent, ${invalid} invalid, ${transient} transient${errors}; ${plural(this.events, 'feed event')}.`;
    if (this.options.json) console.error(summary);
    else console.log(summary);
  }

  private finished(domain: string): void {
    this.done++;
    this.last = domain;
    this.redraw();
  }

  private redraw(): void {
    if (!this.options.tty) return;
    const width = String(this.total).length;
    const percent = Math.floor((this.done * 100) / this.total);
    const { found, absent, invalid, transient } = this.counts;
    const line =
      `[${String(this.done).padStart(width)}/${this.total}] ${percent}%  ok ${found}  stale ${absent + invalid}  failed ${transient + this.errors}  ${this.last}`.trimEnd();
    // Longer than the terminal is wide, it would wrap, and \r would rewrite only its last row.
    const columns = this.options.columns || 80;
    process.stderr.write(`\r${line.length >= columns ? line.slice(0, Math.max(columns - 1, 0)) : line}\x1b[K`);
  }

  /** Takes the progress line off the terminal, before other output. */
  clear(): void {
    if (this.options.tty) process.stderr.write('\r\x1b[K');
  }
}
