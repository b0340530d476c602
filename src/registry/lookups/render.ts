import type { AuthorizationIndex } from './authorization-index.ts';
import type { Verdict } from './check.ts';
import type { IndexedGrant, IndexedProperty } from './index-records.ts';

/** Index records in their wire form (schemas.ts). */

export function propertySummary(p: IndexedProperty) {
  return {
    property_rid: p.rid,
    publisher_domain: p.publisher,
    property_id: p.propertyId,
    property_type: p.type,
    name: p.name,
    identifiers: p.identifiers,
    tags: p.tags,
    status: p.stale ? ('stale' as const) : ('active' as const),
  };
}

export function grantSummary(g: IndexedGrant) {
  return {
    authorization_id: g.id,
    agent_url: g.agentUrl,
    agent_url_canonical: g.agent,
    source_domain: g.source,
    authorization_type: g.authorizationType,
    authorized_for: g.authorizedFor,
    delegation_type: g.delegationType,
    ...(g.exclusive === null ? {} : { exclusive: g.exclusive }),
    ...(g.countries === null ? {} : { countries: g.countries }),
    ...(g.signingKeys === null ? {} : { signing_keys: g.signingKeys }),
  };
}

export function publisherStatus(index: AuthorizationIndex, domain: string): 'active' | 'stale' | 'unknown' {
  const publisher = index.publisher(domain);
  return publisher === undefined ? 'unknown' : publisher.stale ? 'stale' : 'active';
}

/** A verdict as property/authorization-result.json, alone (what a product's per-property answer keeps). */
export function authorizationResult(verdict: Verdict, agentUrl: string) {
  const publisher = verdict.property?.publisher ?? verdict.publisher;
  return {
    status: verdict.status,
    ...(publisher === undefined ? {} : { publisher_domain: publisher }),
    sales_agent_url: agentUrl,
    ...(verdict.violation ? { violation: verdict.violation } : {}),
  };
}

/** A verdict as property/authorization-result.json plus both sides' findings. */
export function renderCheck(
  index: AuthorizationIndex,
  verdict: Verdict,
  agentUrl: string,
  agent: string,
  claimed: string | undefined,
) {
  const { property } = verdict;
  const delegation = claimed ?? verdict.delegation ?? null;
  const publisher = property?.publisher ?? verdict.publisher;
  return {
    result: authorizationResult(verdict, agentUrl),
    agent_url_canonical: agent,
    delegation_type: delegation,
    property: property ? propertySummary(property) : null,
    publisher: {
      domain: publisher ?? null,
      file: publisherFile(index, publisher, property),
      authorizations: verdict.grants.map(grantSummary),
      delegation_confirmed: verdict.matching.length > 0,
    },
    operator: {
      declarations: verdict.declarations,
      confirmed_by: verdict.confirmedBy ?? null,
      relationship_confirmed: verdict.confirmedBy !== undefined,
    },
  };
}

/** The publisher's file as the check found it: a stale property makes it stale too, since it cannot vouch for it. */
function publisherFile(
  index: AuthorizationIndex,
  publisher: string | undefined,
  property: IndexedProperty | undefined,
): 'found' | 'stale' | 'unknown' {
  const status = publisher === undefined ? 'unknown' : publisherStatus(index, publisher);
  if (status === 'unknown') return 'unknown';
  return status === 'stale' || property?.stale ? 'stale' : 'found';
}
