import type { Queryable } from '../../db/database.ts';
import type { Identifier } from './project-adagents.ts';
import * as sql from './sql/index.ts';

/**
 * The operator side of a property: which operators' brand.json declare it (by one of its
 * identifiers), with what relationship, and which agents each operator runs. Carried in every
 * property event, so a reader of the feed can check both sides of an authorization without asking
 * the registry (the feed has no operator events of its own).
 */
export interface OperatorDeclaration {
  operator_domain: string;
  brand_id: string;
  relationship: string;
  /** Canonical URLs of the agents the operator's brand.json lists. */
  agents: string[];
}

/**
 * brand.json names a property by type (`website`, `mobile_app`, `ctv_app`, ...) and one identifier:
 * a website is a domain, anything else is an app, store, feed or venue id, never a domain.
 */
export function sameKind(declaredType: string, identifierType: string): boolean {
  const isDomain = identifierType === 'domain' || identifierType === 'subdomain';
  return (declaredType === 'website') === isDomain;
}

/** The declarations of each property (by its identifiers), in one query for all of them. */
export async function declarationsOf(
  db: Queryable,
  properties: ReadonlyArray<{ identifiers: readonly Identifier[] }>,
): Promise<OperatorDeclaration[][]> {
  const values = [...new Set(properties.flatMap((p) => p.identifiers.map((i) => i.value.toLowerCase())))];
  const rows = values.length === 0 ? [] : await sql.declarationsFor(db, values);
  const byValue = new Map<string, sql.DeclarationRow[]>();
  for (const row of rows) byValue.set(row.identifier, [...(byValue.get(row.identifier) ?? []), row]);
  return properties.map((p) => {
    const found = new Map<string, OperatorDeclaration>();
    for (const i of p.identifiers) {
      for (const row of byValue.get(i.value.toLowerCase()) ?? []) {
        if (!sameKind(row.property_type, i.type)) continue;
        // One per relationship: a brand may declare a property's site as owned and its app as
        // delegated, and either may be the one that confirms an agent.
        found.set(`${row.operator_domain}\u0000${row.brand_id}\u0000${row.relationship}`, {
          operator_domain: row.operator_domain,
          brand_id: row.brand_id,
          relationship: row.relationship,
          agents: [...row.agents].sort(),
        });
      }
    }
    return [...found.values()].sort(
      (a, b) =>
        compare(a.operator_domain, b.operator_domain) ||
        compare(a.brand_id, b.brand_id) ||
        compare(a.relationship, b.relationship),
    );
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
