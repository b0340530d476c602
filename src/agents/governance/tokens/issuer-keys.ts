import type { JWK } from 'jose';
import type { Clock } from '../../../clock.ts';
import type { SafeFetch } from '../../../net/safe-fetch.ts';
import { GovernanceTokenError } from './governance-token.ts';

/** The governance agent's keys could not be read: a seller cannot verify, and halts (GOVERNANCE_UNAVAILABLE). */
export class GovernanceUnavailableError extends Error {
  override readonly name = 'GovernanceUnavailableError';
}

/** How long a governance agent's key set is used before it is fetched again. */
const keySetTtlMs = 5 * 60_000;
/** A key set is fetched again for an unknown `kid` at most this often, whatever tokens name. */
const refetchMs = 30_000;
/** At most this many governance agents' key sets are kept. */
const maxIssuers = 256;

/**
 * The published keys of the governance agents a seller verifies approvals from, fetched through the
 * SSRF-safe client from the issuer's origin (`/.well-known/jwks.json`, where this deployment and
 * the operators' brand.json publish them) and kept for five minutes. An issuer that cannot be
 * reached is a GovernanceUnavailableError: a seller then cannot verify, and halts.
 */
export class IssuerKeys {
  readonly #fetcher: SafeFetch;
  readonly #clock: Clock;
  readonly #sets = new Map<string, { keys: JWK[]; fetchedAt: number }>();

  constructor(fetcher: SafeFetch, clock: Clock) {
    this.#fetcher = fetcher;
    this.#clock = clock;
  }

  /** The issuer's keys, fetched again when stale or, at most every 30 s, when `kid` is not among them. */
  async keysOf(issuer: string, kid: string | undefined): Promise<JWK[]> {
    const now = this.#clock.now().getTime();
    const kept = this.#sets.get(issuer);
    const known = kept && (kid === undefined || kept.keys.some((k) => k.kid === kid));
    if (kept && now - kept.fetchedAt < keySetTtlMs && (known || now - kept.fetchedAt < refetchMs)) return kept.keys;
    const keys = await this.#fetch(issuer);
    if (this.#sets.size >= maxIssuers && !this.#sets.has(issuer)) this.#sets.delete(this.#sets.keys().next().value!);
    this.#sets.set(issuer, { keys, fetchedAt: now });
    return keys;
  }

  async #fetch(issuer: string): Promise<JWK[]> {
    let url: URL;
    try {
      url = new URL('/.well-known/jwks.json', issuer);
    } catch {
      throw new GovernanceTokenError('governance_context names an issuer that is not a URL');
    }
    try {
      const res = await this.#fetcher.fetch(url, { headers: { accept: 'application/json' }, timeoutMs: 5000 });
      const body = res.status === 200 ? (res.json() as { keys?: unknown }) : undefined;
      if (!body || !Array.isArray(body.keys)) throw new Error(`status ${res.status}`);
      return body.keys.filter((k): k is JWK => typeof k === 'object' && k !== null);
    } catch {
      throw new GovernanceUnavailableError(`the governance agent's keys could not be read from ${url.href}`);
    }
  }
}
