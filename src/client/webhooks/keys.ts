import type { SafeFetch } from '../../net/safe-fetch.ts';
import type { Clock } from '../../clock.ts';
import type { WebhookJwk } from '../../signing/index.ts';

export interface SellerKeysOptions {
  fetcher: SafeFetch;
  clock: Clock;
  /** The seller operator's brand.json, e.g. `https://seller.example/.well-known/brand.json`. */
  brandJsonUrl: string;
  /** The agent whose webhooks these are; its `agents[]` entry names the JWKS. Any entry's JWKS when omitted. */
  agentUrl?: string;
  /**
   * The publisher's `adagents.json` `signing_keys` for this agent, when it declares any: the
   * authoritative identity, so only keys among them are accepted, whatever the JWKS says.
   */
  pinnedKeys?: readonly WebhookJwk[];
  /** How long fetched keys are trusted before fetching again (an unknown kid refetches sooner). */
  cacheSeconds?: number;
}

/**
 * Resolves a webhook's `keyid` the way the spec describes: the seller operator's brand.json →
 * `agents[].jwks_uri` → the JWKS, every fetch through the SSRF-safe client; honouring a publisher
 * pin. Keys are cached; an unknown kid triggers at most one refetch a minute (key rotation).
 */
export function sellerKeys(options: SellerKeysOptions): (keyid: string) => Promise<WebhookJwk | undefined> {
  const cacheMs = (options.cacheSeconds ?? 300) * 1000;
  let keys = new Map<string, WebhookJwk>();
  let fetchedAt = -Infinity;
  let refreshing: Promise<void> | undefined;

  // A seller whose documents cannot be read now is an error (the receiver answers 5xx and the
  // sender retries), never an empty key set that would reject the webhook for good.
  const readJson = async (url: string) => {
    const res = await options.fetcher.fetch(url, { headers: { accept: 'application/json' } });
    if (res.status !== 200) throw new Error(`${url} answered HTTP ${res.status}`);
    return res.json();
  };
  const refresh = async () => {
    const brand = (await readJson(options.brandJsonUrl)) as { agents?: Array<{ url?: string; jwks_uri?: string }> };
    const entries = (brand.agents ?? []).filter(
      (a) => typeof a.jwks_uri === 'string' && (!options.agentUrl || sameUrl(a.url, options.agentUrl)),
    );
    const next = new Map<string, WebhookJwk>();
    for (const uri of new Set(entries.map((a) => a.jwks_uri!))) {
      const jwks = (await readJson(uri)) as { keys?: WebhookJwk[] };
      for (const key of jwks.keys ?? []) if (typeof key.kid === 'string') next.set(key.kid, key);
    }
    keys = next;
    fetchedAt = options.clock.now().getTime();
  };
  const refreshOnce = () => (refreshing ??= refresh().finally(() => (refreshing = undefined)));

  return async (keyid) => {
    const age = options.clock.now().getTime() - fetchedAt;
    if (age > cacheMs || (!keys.has(keyid) && age > 60_000)) await refreshOnce();
    const key = keys.get(keyid);
    if (!key || !options.pinnedKeys) return key;
    return options.pinnedKeys.some((pin) => samePublicKey(pin, key)) ? key : undefined;
  };
}

function sameUrl(a: string | undefined, b: string): boolean {
  if (!a) return false;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

function samePublicKey(a: WebhookJwk, b: WebhookJwk): boolean {
  return a.kid === b.kid && a.kty === b.kty && a.crv === b.crv && a.x === b.x && a.y === b.y;
}
