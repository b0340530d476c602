import { canonicalAgentUrl } from '../../protocol/agent-url.ts';
import { isRecord, records } from '../../protocol/json-values.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import type { Clock } from '../../clock.ts';
import type { WebhookJwk } from '../../signing/index.ts';

/**
 * The `signing_keys` a publisher's adagents.json attests for `agentUrl` (every `authorized_agents[]`
 * entry naming it, compared canonically), fetched through the SSRF-safe client. Undefined when
 * the entries declare none: then there is no pin and the seller's own JWKS decides. A file that
 * cannot be read, or does not list the agent at all, is an error: the receiver was told to trust
 * this publisher's word about the agent and has none.
 */
export async function adagentsPins(
  fetcher: SafeFetch,
  adagentsUrl: string,
  agentUrl: string,
  clock: Clock,
): Promise<WebhookJwk[] | undefined> {
  const res = await fetcher.fetch(adagentsUrl, { headers: { accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`${adagentsUrl} answered HTTP ${res.status}`);
  let document: unknown;
  try {
    document = res.json();
  } catch {
    throw new Error(`${adagentsUrl} is not JSON`);
  }
  const wanted = canonicalAgentUrl(agentUrl);
  const entries = records(isRecord(document) ? document['authorized_agents'] : undefined).filter(
    (e) => typeof e['url'] === 'string' && canonicalAgentUrl(e['url']) === wanted,
  );
  if (entries.length === 0) throw new Error(`${adagentsUrl} does not list the agent ${agentUrl}`);
  const declared = entries.flatMap((e) => records(e['signing_keys']));
  return declared.length === 0 ? undefined : usablePins(declared, clock, adagentsUrl);
}

/** Pins from a file the operator wrote: a JWKS (`{"keys": [...]}`) or an array of JWKs. */
export function pinsFromJson(text: string, clock: Clock, where: string): WebhookJwk[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new Error(`${where} is not JSON`);
  }
  const keys = records(Array.isArray(document) ? document : isRecord(document) ? document['keys'] : undefined);
  if (keys.length === 0)
    throw new Error(`${where} holds no keys: expected a JWKS ({"keys": [...]}) or an array of JWKs`);
  return usablePins(keys, clock, where);
}

/**
 * Keys with a `kid`, less those already revoked (`revoked_at` passed). Checked once, when the pins
 * are read: a signature made before the revocation is refused too, which errs on the safe side.
 */
function usablePins(keys: Record<string, unknown>[], clock: Clock, where: string): WebhookJwk[] {
  const now = clock.now().getTime();
  const pins = keys.filter(
    (k) => typeof k['kid'] === 'string' && !(typeof k['revoked_at'] === 'string' && Date.parse(k['revoked_at']) <= now),
  );
  if (pins.length === 0) throw new Error(`${where}: every signing key is revoked or has no kid`);
  return pins as unknown as WebhookJwk[];
}
