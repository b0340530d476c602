import type { AuthorizationIndex } from './authorization-index.ts';
import type { Coverage } from './coverage.ts';
import { Outcome } from './decision-table.ts';
import type { Declaration, Identifier, IndexedGrant, IndexedProperty, PropertyRef } from './index-records.ts';

/**
 * The real-time authorization check, both sides (spec section 4): the publisher's adagents.json
 * must authorize the agent for the property with the claimed delegation_type, and an operator
 * whose brand.json lists the agent must declare the property with a matching relationship. Stale
 * or missing evidence answers `unknown`, never `authorized`. Pure reads of the index.
 */

export type CheckStatus = 'authorized' | 'unauthorized' | 'unknown';

export type ViolationCode =
  | 'publisher_file_unknown'
  | 'property_not_found'
  | 'property_stale'
  | 'agent_not_authorized'
  | 'delegation_mismatch'
  | 'operator_not_declared'
  | 'relationship_mismatch';

export interface Violation {
  code: ViolationCode;
  message: string;
}

export interface CheckRequest {
  /** Canonical agent URL. */
  agent: string;
  property: PropertyRef;
  delegation_type?: string | undefined;
}

export interface Verdict {
  status: CheckStatus;
  violation?: Violation;
  /** The property the verdict is about; absent when none is known. */
  property?: IndexedProperty;
  /** Whose adagents.json was consulted, when known without a property (one declaring no such property, or none known). */
  publisher?: string;
  /** The agent's grants covering the property (any delegation). */
  grants: IndexedGrant[];
  /** Grants whose delegation_type agrees with the claim (or all, when none is claimed). */
  matching: IndexedGrant[];
  /** The delegation the operator side was checked for: the claim, else the one confirmed, else the first (by name) the publisher states. */
  delegation?: string | null;
  /** Every operator declaration of the property, and the one that confirms this agent, if any. */
  declarations: readonly Declaration[];
  confirmedBy?: Declaration;
}

// When several properties answer to one identifier: any authorization wins; otherwise a property
// we cannot vouch for (stale) outranks a definite refusal elsewhere, since it might authorize; and
// among refusals the one that got furthest through the checks is told. Never the first found: the
// index's order depends on the order it learnt things in, which differs between instances.
const refusals: ViolationCode[] = [
  'relationship_mismatch',
  'operator_not_declared',
  'delegation_mismatch',
  'agent_not_authorized',
];
const standing = (v: Verdict): number =>
  v.status === 'authorized' ? 0 : v.status === 'unknown' ? 1 : 2 + refusals.indexOf(v.violation!.code);

/**
 * The check with its evidence: which property, grants and declarations, and why. The index decides
 * on numbers (decision-table.ts) which candidate property answers and how; the records then explain
 * that one property.
 */
export function checkAuthorization(index: AuthorizationIndex, req: CheckRequest): Verdict {
  const decision = index.decide(req.agent, req.property, req.delegation_type);
  const outcome = decision % 16;
  if (outcome === Outcome.Undecided) return checkByRecords(index, req);
  const property = Math.floor(decision / 16) - 1;
  if (property >= 0) return checkProperty(index, req, index.propertyNumbered(property));
  const refusal = candidatesOf(index, req.property);
  return isList(refusal) ? checkByRecords(index, req) : { ...refusal, grants: [], matching: [], declarations: [] };
}

/** The answer alone, for a caller that needs no evidence: one of a few shared objects, so deciding allocates nothing. */
export function authorizationStatus(
  index: AuthorizationIndex,
  req: CheckRequest,
): { status: CheckStatus; code?: ViolationCode } {
  const outcome = index.decide(req.agent, req.property, req.delegation_type) % 16;
  if (outcome !== Outcome.Undecided) return answers[outcome]!;
  const { status, violation } = checkByRecords(index, req);
  return violation ? { status, code: violation.code } : { status };
}

const answers: ReadonlyArray<{ status: CheckStatus; code?: ViolationCode }> = Object.freeze(
  (
    [
      ['authorized'],
      ['unknown', 'property_stale'],
      ['unauthorized', 'relationship_mismatch'],
      ['unauthorized', 'operator_not_declared'],
      ['unauthorized', 'delegation_mismatch'],
      ['unauthorized', 'agent_not_authorized'],
      ['unauthorized', 'property_not_found'],
      ['unknown', 'publisher_file_unknown'],
    ] as const
  ).map(([status, code]) => Object.freeze(code === undefined ? { status } : { status, code })),
);

/** The same check from the records alone, property by property: the reference the decision table is held to. */
export function checkByRecords(index: AuthorizationIndex, req: CheckRequest): Verdict {
  const candidates = candidatesOf(index, req.property);
  if (!isList(candidates)) return { ...candidates, grants: [], matching: [], declarations: [] };
  let best: Verdict | undefined;
  for (const property of candidates) {
    const verdict = checkProperty(index, req, property);
    if (!best || standing(verdict) < standing(best)) best = verdict;
    if (best.status === 'authorized') break;
  }
  return best!;
}

/**
 * The check for a property named by several identifiers (a product's inline property): the best
 * verdict over every catalog property any of them names, ranked as above; when none names one, the
 * first identifier's answer says so.
 */
export function checkIdentifiers(
  index: AuthorizationIndex,
  req: Omit<CheckRequest, 'property'>,
  identifiers: readonly Identifier[],
): Verdict {
  let best: Verdict | undefined;
  for (const identifier of identifiers) {
    if (index.propertiesByIdentifier(identifier.type, identifier.value).length === 0) continue;
    const verdict = checkAuthorization(index, { ...req, property: { identifier } });
    if (!best || standing(verdict) < standing(best)) best = verdict;
    if (best.status === 'authorized') break;
  }
  return best ?? checkAuthorization(index, { ...req, property: { identifier: identifiers[0]! } });
}

const isList = (x: unknown): x is readonly IndexedProperty[] => Array.isArray(x);

function candidatesOf(
  index: AuthorizationIndex,
  ref: PropertyRef,
): readonly IndexedProperty[] | { status: CheckStatus; violation: Violation; publisher?: string } {
  if ('identifier' in ref) {
    const { type, value } = ref.identifier;
    const found = index.propertiesByIdentifier(type, value);
    if (found.length > 0) return found;
    // A domain that is itself a known publisher: its file is known and declares no such property.
    if ((type === 'domain' || type === 'subdomain') && index.publisher(value.toLowerCase())) {
      return {
        ...refused(
          'unauthorized',
          'property_not_found',
          `The adagents.json of ${value.toLowerCase()} declares no property with identifier ${type} ${value}.`,
        ),
        publisher: value.toLowerCase(),
      };
    }
    return refused(
      'unknown',
      'publisher_file_unknown',
      `No adagents.json known to the registry declares a property with identifier ${type} ${value}.`,
    );
  }
  const publisher = index.publisher(ref.publisher_domain);
  if (!publisher)
    return {
      ...refused('unknown', 'publisher_file_unknown', `The registry has no adagents.json for ${ref.publisher_domain}.`),
      publisher: ref.publisher_domain,
    };
  const property = index.propertyById(ref.publisher_domain, ref.property_id);
  if (!property)
    return {
      ...refused(
        'unauthorized',
        'property_not_found',
        `The adagents.json of ${ref.publisher_domain} declares no property "${ref.property_id}".`,
      ),
      publisher: ref.publisher_domain,
    };
  return [property];
}

function refused(status: CheckStatus, code: ViolationCode, message: string) {
  return { status, violation: { code, message } };
}

/** The check for one known catalog property (a product's selected properties are known already). */
export function checkProperty(
  index: AuthorizationIndex,
  req: Omit<CheckRequest, 'property'>,
  property: IndexedProperty,
): Verdict {
  const covering = index.coveragesOf(req.agent, property);
  const grants = covering.map((c) => c.grant);
  const declarations = property.declarations;
  const base = { property, grants, declarations };
  if (property.stale || index.publisherStale(property)) {
    const publisher = index.publisherOf(property);
    const reason = publisher?.stale && publisher.reason ? ` (${publisher.reason})` : '';
    return {
      ...base,
      matching: [],
      ...refused(
        'unknown',
        'property_stale',
        `Property ${label(property)} failed its last re-crawl${reason}; its authorizations cannot be vouched for.`,
      ),
    };
  }
  if (covering.length === 0) {
    return {
      ...base,
      matching: [],
      ...refused(
        'unauthorized',
        'agent_not_authorized',
        `The adagents.json of ${property.publisher} does not authorize ${req.agent} for property ${label(property)}.`,
      ),
    };
  }
  const claimed = req.delegation_type;
  const agreeing = claimed === undefined ? covering : covering.filter((c) => c.delegationType === claimed);
  const matching = agreeing === covering ? grants : agreeing.map((c) => c.grant);
  if (matching.length === 0) {
    const stated = [...new Set(covering.map((c) => c.delegationType ?? 'unspecified'))].join(', ');
    return {
      ...base,
      matching,
      ...refused(
        'unauthorized',
        'delegation_mismatch',
        `The publisher authorizes ${req.agent} with delegation_type ${stated}, not ${claimed}.`,
      ),
    };
  }
  // Unclaimed, any delegation the publisher states for the agent may be the one the operator
  // confirms (grants from several files can state different ones); none stated reads as null.
  const delegations = claimed !== undefined ? [claimed] : statedDelegations(agreeing);
  // Past this point a grant matched, and only the operator's confirmation is missing.
  const unconfirmed = (code: ViolationCode, message: string): Verdict => ({
    ...base,
    matching,
    delegation: delegations[0] ?? null,
    ...refused('unauthorized', code, message),
  });
  const ofAgent = declarations.filter((d) => d.agents.includes(req.agent));
  if (ofAgent.length === 0) {
    return unconfirmed(
      'operator_not_declared',
      `No operator whose brand.json lists ${req.agent} declares property ${label(property)}.`,
    );
  }
  for (const delegation of delegations) {
    const confirmedBy = ofAgent.find((d) => relationshipMatches(d.relationship, delegation));
    if (confirmedBy) return { ...base, matching, delegation, status: 'authorized', confirmedBy };
  }
  const relationships = [...new Set(ofAgent.map((d) => d.relationship))].join(', ');
  return unconfirmed(
    'relationship_mismatch',
    `The operator declares property ${label(property)} as ${relationships}, which does not match delegation_type ${delegations.join(' or ')}.`,
  );
}

/** The delegations the grants state, each once in order, or [null] when none states one. */
function statedDelegations(coverages: readonly Coverage[]): Array<string | null> {
  const named = [...new Set(coverages.flatMap((c) => (c.delegationType === null ? [] : [c.delegationType])))].sort();
  return named.length > 0 ? named : [null];
}

/**
 * brand.json's relationship uses adagents.json's delegation vocabulary plus `owned`: a property the
 * operator owns is sold directly. With no delegation stated on either side there is nothing to contradict.
 */
export function relationshipMatches(relationship: string, delegation: string | null): boolean {
  if (delegation === null) return true;
  return relationship === delegation || (relationship === 'owned' && delegation === 'direct');
}

function label(property: IndexedProperty): string {
  return property.propertyId
    ? `"${property.propertyId}" of ${property.publisher}`
    : `"${property.name}" of ${property.publisher}`;
}
