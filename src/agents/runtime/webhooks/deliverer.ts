import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/database.ts';
import { BackgroundPass } from '../../../jobs/background-pass.ts';
import { FetchError, type FetchErrorReason } from '../../../net/fetch-error.ts';
import type { SafeFetch } from '../../../net/safe-fetch.ts';
import { signWebhook, type WebhookSigningKey } from '../../../signing/index.ts';
import type { SigningKey } from '../keys/store.ts';
import { StartedWork } from '../started-work.ts';
import * as sql from './sql.ts';
import type { DeliveryRow } from './sql.ts';

export interface DeliverySettings {
  /** First retry delay; each retry doubles it, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  maxAttempts: number;
  /** How long a claimed delivery is this sender's; a dead sender's is sent again once it lapses. */
  leaseMs: number;
  /** How often the outbox is checked for due retries (a new webhook wakes it at once). */
  pollMs: number;
}

// A destination that can never be reached as given is not retried.
const terminalReasons = new Set<FetchErrorReason>([
  'invalid_url',
  'unsupported_scheme',
  'credentials_in_url',
  'forbidden_address',
  'redirect_refused',
]);

/** What one delivery attempt came to, once written to the outbox. */
export interface DeliveryEvent {
  id: string;
  /** The task it reports on; null for other events. */
  taskId: string | null;
  /** Attempts so far, this one included. */
  attempts: number;
  outcome: 'delivered' | 'retrying' | 'failed';
  error?: string;
}

/**
 * Sends the webhook outbox: each delivery signed (RFC 9421, this deployment's current key) at
 * every attempt and POSTed through the SSRF-safe client, since the URL is the caller's. 2xx
 * delivers; 5xx, 429 and network failures retry with exponential backoff and jitter; any other
 * status, or a destination the client refuses, fails for good.
 */
export class WebhookDeliverer {
  private readonly db: Database;
  private readonly fetcher: SafeFetch;
  private readonly clock: Clock;
  private readonly signingKey: () => Promise<SigningKey>;
  private readonly settings: DeliverySettings;
  private readonly log: FastifyBaseLogger;
  private readonly pass: BackgroundPass;
  private readonly sending: StartedWork;
  private readonly watchers = new Set<(event: DeliveryEvent) => void>();

  constructor(parts: {
    db: Database;
    fetcher: SafeFetch;
    clock: Clock;
    signingKey: () => Promise<SigningKey>;
    settings: DeliverySettings;
    log: FastifyBaseLogger;
  }) {
    ({
      db: this.db,
      fetcher: this.fetcher,
      clock: this.clock,
      signingKey: this.signingKey,
      settings: this.settings,
      log: this.log,
    } = parts);
    this.pass = new BackgroundPass(
      () => this.drain(),
      (err) => this.log.error({ err }, 'webhook outbox pass failed; the next pass retries'),
      this.settings.pollMs,
    );
    this.sending = new StartedWork(this.pass);
  }

  start(): void {
    this.sending.start();
  }

  /** Sends what is due now. */
  wake(): void {
    this.sending.wake();
  }

  /**
   * Hears the end of each delivery attempt, once recorded, so a test waits for the attempt itself
   * instead of polling the outbox. Returns the function that stops listening.
   */
  watch(listener: (event: DeliveryEvent) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /**
   * Resolves when the next pass to start from now on has finished, so a test can show that a
   * pass over the outbox sent nothing more (an attempt's absence has no event to wait for).
   */
  nextPass(): Promise<void> {
    return this.pass.nextPass();
  }

  async close(): Promise<void> {
    await this.pass.stop();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const due = await sql.claimDue(this.db, now, new Date(now.getTime() + this.settings.leaseMs), 20);
      if (due.length === 0) return;
      await Promise.all(due.map((row) => this.send(row)));
      if (this.pass.stopping) return;
    }
  }

  private async send(row: DeliveryRow): Promise<void> {
    const body = JSON.stringify(row.payload);
    let outcome: { ok: true } | { ok: false; retry: boolean; error: string };
    try {
      const key = await this.signingKey();
      const signed = signWebhook(
        { method: 'POST', url: row.url, headers: { 'Content-Type': 'application/json' }, body },
        key.privateJwk as WebhookSigningKey,
        { clock: this.clock },
      );
      const res = await this.fetcher.fetch(row.url, {
        method: 'POST',
        headers: signed.headers,
        body,
        redirect: 'error',
        maxBytes: 64 * 1024,
      });
      outcome =
        res.status >= 200 && res.status < 300
          ? { ok: true }
          : { ok: false, retry: res.status >= 500 || res.status === 429, error: `HTTP ${res.status}` };
    } catch (err) {
      const terminal = err instanceof FetchError && terminalReasons.has(err.reason);
      outcome = { ok: false, retry: !terminal, error: err instanceof Error ? err.message : String(err) };
    }
    const attempt = { id: row.id, taskId: row.task_id, attempts: row.attempts };
    if (outcome.ok) {
      await sql.delivered(this.db, row.id, this.clock.now());
      return this.tell({ ...attempt, outcome: 'delivered' });
    }
    if (!outcome.retry || row.attempts >= this.settings.maxAttempts) {
      this.log.warn(
        { delivery: row.id, task: row.task_id, attempts: row.attempts, error: outcome.error },
        'webhook delivery failed for good',
      );
      await sql.failed(this.db, row.id, outcome.error);
      return this.tell({ ...attempt, outcome: 'failed', error: outcome.error });
    }
    const backoff = Math.min(this.settings.maxDelayMs, this.settings.baseDelayMs * 2 ** (row.attempts - 1));
    const delay = backoff / 2 + Math.random() * (backoff / 2);
    await sql.retryAt(this.db, row.id, new Date(this.clock.now().getTime() + delay), outcome.error);
    this.tell({ ...attempt, outcome: 'retrying', error: outcome.error });
  }

  private tell(event: DeliveryEvent): void {
    for (const listener of this.watchers) listener(event);
  }
}
