import type { World } from '../../../src/registry/demo/index.ts';
import type { Json } from '../../support/http.ts';

/** One way an agent may sell a property, as the publisher says and as the operator declares it. */
export interface SalesPath {
  publisher: string;
  property: string;
  agent: string;
  delegation_type: string;
  /** The operator's brand.json `relationship` for the property; undefined when it does not declare it. */
  relationship: string | undefined;
}

/**
 * Every (property, agent) pair the world's adagents.json files authorize, with what the agent's
 * operator declares in its brand.json: worked out from the documents alone, independently of the
 * registry's own projection, so the world's intended shape is checked on its own terms.
 */
export function salesPaths(world: World): SalesPath[] {
  const byPublisher = new Map(
    world.publishers.map((p) => [p.domain, ((p.document as Json)['properties'] ?? []) as Json[]]),
  );
  const operatorOf = new Map<string, Json>();
  for (const { document } of world.brands) {
    for (const agent of ((document as Json)['house']?.['agents'] ?? []) as Json[])
      operatorOf.set(agent['url'], document);
  }
  const paths: SalesPath[] = [];
  for (const { domain, document } of world.publishers) {
    for (const entry of (document as Json)['authorized_agents'] as Json[]) {
      for (const [publisher, property] of covered(domain, entry, byPublisher)) {
        const operator = operatorOf.get(entry['url']);
        const values = new Set((property['identifiers'] as Json[]).map((i) => String(i['value']).toLowerCase()));
        const declared = ((operator?.['brands'] ?? []) as Json[])
          .flatMap((brand) => (brand['properties'] ?? []) as Json[])
          .find((p) => p['type'] === property['property_type'] && values.has(String(p['identifier']).toLowerCase()));
        paths.push({
          publisher,
          property: property['property_id'] ?? property['identifiers'][0].value,
          agent: entry['url'],
          delegation_type: entry['delegation_type'],
          relationship: declared ? (declared['relationship'] ?? 'owned') : undefined,
        });
      }
    }
  }
  return paths;
}

function covered(domain: string, entry: Json, byPublisher: Map<string, Json[]>): Array<[string, Json]> {
  const own = byPublisher.get(domain) ?? [];
  const tagged = (properties: Json[], tags: string[]) =>
    properties.filter((p) => (p['tags'] ?? []).some((t: string) => tags.includes(t)));
  switch (entry['authorization_type']) {
    case 'property_ids':
      return own.filter((p) => entry['property_ids'].includes(p['property_id'])).map((p) => [domain, p]);
    case 'property_tags':
      return tagged(own, entry['property_tags']).map((p) => [domain, p]);
    case 'inline_properties':
      return (entry['properties'] as Json[]).map((p) => [domain, p]);
    case 'publisher_properties':
      return (entry['publisher_properties'] as Json[]).flatMap((selector) => {
        const theirs = byPublisher.get(selector['publisher_domain']) ?? [];
        const chosen =
          selector['selection_type'] === 'by_id'
            ? theirs.filter((p) => selector['property_ids'].includes(p['property_id']))
            : selector['selection_type'] === 'by_tag'
              ? tagged(theirs, selector['property_tags'])
              : theirs;
        return chosen.map((p): [string, Json] => [selector['publisher_domain'], p]);
      });
    default:
      return [];
  }
}
