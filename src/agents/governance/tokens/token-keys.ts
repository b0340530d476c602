import { decodeProtectedHeader, type JWK } from 'jose';
import type { Queryable } from '../../../db/database.ts';
import { currentKeyIn, publishedKeys, type KeySettings } from '../../runtime/keys/store.ts';
import { AgentError } from '../../../protocol/errors.ts';
import {
  GovernanceTokenError,
  signDetached,
  signGovernanceToken,
  tokenSigner,
  verifyGovernanceToken,
  type TokenSigner,
  type GovernanceClaims,
  type VerifyOptions,
} from './governance-token.ts';

/** How long a key read from the database is used before it is read again (a rotation shows within it). */
const keyCacheMs = 60_000;

/**
 * The governance agent's signing and verifying of its own approvals, with the deployment's
 * governance key (made at first use, shared by every instance through the database) and the
 * published key set, each kept in memory for a minute: a check signs without a key query.
 */
export class TokenKeys {
  readonly #settings: KeySettings;
  /** This agent's MCP URL: the issuer of its tokens. */
  readonly issuer: () => string;
  #signing: { signer: TokenSigner; until: number } | undefined;
  #published: { keys: JWK[]; until: number; readAt: number } | undefined;

  constructor(settings: KeySettings, issuer: () => string) {
    this.#settings = settings;
    this.issuer = issuer;
  }

  async sign(tx: Queryable, claims: Omit<GovernanceClaims, 'jti'>): Promise<string> {
    return signGovernanceToken(await this.#signer(tx), claims);
  }

  /** A detached compact JWS of `payload` (a governance webhook's `signature`). */
  async signDetached(tx: Queryable, payload: Uint8Array): Promise<string> {
    return signDetached(await this.#signer(tx), payload);
  }

  async #signer(tx: Queryable): Promise<TokenSigner> {
    const now = this.#settings.clock.now().getTime();
    if (!this.#signing || this.#signing.until <= now)
      this.#signing = {
        signer: tokenSigner((await currentKeyIn(tx, this.#settings, 'governance-signing')).privateJwk),
        until: now + keyCacheMs,
      };
    return this.#signing.signer;
  }

  /**
   * Verifies one of this deployment's tokens. A `kid` it does not know (another instance's new key)
   * sends it to the database, at most once a second whatever kids hostile tokens name.
   */
  async verify(db: Queryable, token: string, options: Omit<VerifyOptions, 'keys'>): Promise<GovernanceClaims> {
    const now = this.#settings.clock.now().getTime();
    if (!this.#published || this.#published.until <= now) await this.#read(db, now);
    const kid = kidOf(token);
    if (kid && !this.#published!.keys.some((k) => k.kid === kid) && now - this.#published!.readAt >= 1000)
      await this.#read(db, now);
    return verifyGovernanceToken(token, { ...options, keys: this.#published!.keys });
  }

  /**
   * A token a caller sent back, as this agent issued it for `planId` (signature, issuer and plan;
   * an old one still names its action) and, given an `audience`, addressed to it or to no one.
   * Anything else is PERMISSION_DENIED on `governance_context`.
   */
  async own(db: Queryable, token: string, planId?: string, audience?: string): Promise<GovernanceClaims> {
    try {
      return await this.verify(db, token, {
        issuer: this.issuer(),
        ...(planId === undefined ? {} : { planId }),
        ...(audience === undefined ? {} : { audience }),
      });
    } catch (err) {
      if (err instanceof GovernanceTokenError)
        throw new AgentError('PERMISSION_DENIED', err.message, { field: 'governance_context' });
      throw err;
    }
  }

  async #read(db: Queryable, now: number): Promise<void> {
    this.#published = {
      keys: (await publishedKeys(db, this.#settings)) as JWK[],
      until: now + keyCacheMs,
      readAt: now,
    };
  }
}

function kidOf(token: string): string | undefined {
  try {
    const { kid } = decodeProtectedHeader(token);
    return typeof kid === 'string' ? kid : undefined;
  } catch {
    return undefined;
  }
}
