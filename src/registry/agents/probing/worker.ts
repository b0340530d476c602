import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/database.ts';
import { BackgroundPass } from '../../../jobs/background-pass.ts';
import type { SafeFetch } from '../../../net/safe-fetch.ts';
import { probeAgent } from './probe-agent.ts';
import { recordProbe, type RecordOutcome } from './record.ts';
import * as sql from './sql.ts';

export interface ProbeSettings {
  /** How often each agent is probed (health and compliance). */
  intervalMs: number;
  /** How long a capabilities document is used before it is fetched again (spec section 8: ~24 h). */
  capabilitiesTtlMs: number;
  /** Longer than a probe can take (a handful of capped fetches). */
  leaseMs: number;
  /** Agents probed at once by one worker. */
  concurrency: number;
  /** How often the background loop looks for due agents. */
  pollMs: number;
  /** The `Authorization` to send an agent, if any (e.g. a credential its operator gave the registry). */
  authorization?: (agentUrl: string) => string | undefined;
  /** Another fetch client for some agents (this deployment's own, on loopback); the worker's by default. */
  fetcherFor?: (agentUrl: string) => SafeFetch | undefined;
}

export const defaultProbeSettings: ProbeSettings = {
  intervalMs: 15 * 60_000,
  capabilitiesTtlMs: 24 * 3_600_000,
  leaseMs: 5 * 60_000,
  concurrency: 4,
  pollMs: 60_000,
};

/** One agent probed: what was recorded. */
export interface ProbeReport {
  agentUrl: string;
  outcome: RecordOutcome | 'failed';
  reachable?: boolean;
  /** Whether the probe fetched the capabilities (false: the cache was fresh, or the fetch failed). */
  fetchedCapabilities?: boolean;
}

/**
 * Probes enrolled agents as they fall due, from the shared queue (registry_agent_probes). Every
 * instance may run one: SKIP LOCKED claims mean no two probe the same agent at once, and recording
 * a probe moves the agent a whole interval on. `probeDue` is one round, what the loop runs and
 * what tests call with a manual clock.
 */
export class ProbeWorker {
  private readonly db: Database;
  private readonly fetcher: SafeFetch;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  readonly settings: ProbeSettings;
  private readonly pass: BackgroundPass;

  constructor(parts: {
    db: Database;
    fetcher: SafeFetch;
    clock: Clock;
    log: FastifyBaseLogger;
    settings?: Partial<ProbeSettings>;
  }) {
    ({ db: this.db, fetcher: this.fetcher, clock: this.clock, log: this.log } = parts);
    this.settings = { ...defaultProbeSettings, ...parts.settings };
    this.pass = new BackgroundPass(
      async () => void (await this.probeDue()),
      (err) => this.log.error({ err }, 'agent prober could not claim agents; the next pass retries'),
      this.settings.pollMs,
    );
  }

  start(): void {
    this.pass.start();
  }

  /** Looks for due agents now (e.g. one was just enrolled). */
  wake(): void {
    this.pass.wake();
  }

  /** Resolves when the next background pass has finished. */
  nextPass(): Promise<void> {
    return this.pass.nextPass();
  }

  /** Stops the loop; a pass in progress finishes first. */
  async stop(): Promise<void> {
    await this.pass.stop();
  }

  /** Probes every agent due now, `concurrency` at a time, claiming as it goes; resolves with what each came to. */
  async probeDue(): Promise<ProbeReport[]> {
    const reports: ProbeReport[] = [];
    for (;;) {
      const now = this.clock.now();
      const claimed = await sql.claimDue(
        this.db,
        this.settings.concurrency,
        now,
        new Date(now.getTime() + this.settings.leaseMs),
      );
      this.log.debug({ claimed: claimed.length }, 'agent prober claimed');
      if (claimed.length === 0) return reports;
      reports.push(...(await Promise.all(claimed.map((row) => this.probeOne(row)))));
    }
  }

  private async probeOne(row: sql.ProbeRow): Promise<ProbeReport> {
    const startedAt = this.clock.now();
    const fresh =
      row.capabilities !== null &&
      row.capabilities_fetched_at !== null &&
      startedAt.getTime() - row.capabilities_fetched_at.getTime() < this.settings.capabilitiesTtlMs;
    try {
      const authorization = this.settings.authorization?.(row.agent_url);
      const seen = await probeAgent(row.agent_url, fresh ? row.capabilities : undefined, {
        fetcher: this.settings.fetcherFor?.(row.agent_url) ?? this.fetcher,
        ...(authorization ? { authorization } : {}),
      });
      const now = this.clock.now();
      const outcome = await recordProbe(this.db, row.agent_url, seen, {
        startedAt,
        now,
        nextAt: new Date(now.getTime() + this.settings.intervalMs),
        usedCache: fresh,
      });
      this.log.info(
        { agentUrl: row.agent_url, outcome, reachable: seen.reachable, latencyMs: seen.latencyMs },
        'agent probed',
      );
      return {
        agentUrl: row.agent_url,
        outcome,
        reachable: seen.reachable,
        fetchedCapabilities: seen.fetchedCapabilities !== undefined,
      };
    } catch (err) {
      // Not the agent's doing (the database, a bug): try again a little later, not a whole interval.
      this.log.error({ err, agentUrl: row.agent_url }, 'agent probe failed');
      await sql
        .releaseProbe(
          this.db,
          row.agent_url,
          new Date(this.clock.now().getTime() + Math.min(this.settings.intervalMs, 60_000)),
        )
        .catch(() => {});
      return { agentUrl: row.agent_url, outcome: 'failed' };
    }
  }
}
