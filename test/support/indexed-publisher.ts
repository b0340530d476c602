import type { AuthorizationIndex } from '../../src/registry/lookups/index.ts';

/** The sales agent the publishers below authorize, run by `sales.example`. */
export const indexedAgent = 'https://sales.example/mcp';

/**
 * A publisher in an authorization index as a crawl would leave it: `count` properties (websites
 * unless `typeOf` says otherwise: `s<k>.<domain>`, property ids `prop_<k>`, tagged premium and standard in turn), its file
 * current, and every property granted to `indexedAgent`, whose operator declares them (so the
 * registry's check answers authorized). Applied straight to the index, as its follower would.
 */
export function indexPublisher(
  index: AuthorizationIndex,
  domain: string,
  count: number,
  { granted = true, typeOf = () => 'website' }: { granted?: boolean; typeOf?: (k: number) => string } = {},
): void {
  index.apply('publisher', { publisher_domain: domain, status: 'active' });
  for (let k = 0; k < count; k++)
    index.apply('property', {
      property_rid: `${domain}-${k}`,
      publisher_domain: domain,
      identifiers: [{ type: 'domain', value: `s${k}.${domain}` }],
      property: {
        property_id: `prop_${k}`,
        property_type: typeOf(k),
        name: `${domain} ${k}`,
        tags: [k % 2 === 0 ? 'premium' : 'standard'],
      },
      status: 'active',
      operator_declarations: [
        { operator_domain: 'sales.example', brand_id: 'sales', relationship: 'owned', agents: [indexedAgent] },
      ],
    });
  if (granted)
    index.apply('authorization', {
      id: `grant-${domain}`,
      publisher_domain: domain,
      agent_url: indexedAgent,
      agent_url_canonical: indexedAgent,
      authorization_type: 'publisher_properties',
      scopes: [{ target_publisher: domain, kind: 'all', value: '' }],
    });
}

/**
 * A collection of `domain`'s catalog (adagents.json `collections`) in the index, as its follower
 * applies a `collection.*` event: `fields` are core/collection.json's (genre, content_rating…),
 * its distribution identifiers the given ones.
 */
export function indexCollection(
  index: AuthorizationIndex,
  domain: string,
  collectionId: string,
  ids: Array<{ type: string; value: string }>,
  fields: Record<string, unknown> = {},
  status: 'active' | 'removed' = 'active',
): void {
  index.apply('collection.updated', {
    collection_rid: `${domain}-${collectionId}`,
    publisher_domain: domain,
    collection_id: collectionId,
    name: `${collectionId} of ${domain}`,
    kind: fields['kind'] ?? null,
    status,
    identifiers: ids.map((i) => ({ publisher_domain: domain, ...i })),
    collection: { collection_id: collectionId, name: `${collectionId} of ${domain}`, ...fields },
  });
}
