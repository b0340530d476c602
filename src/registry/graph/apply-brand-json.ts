import { isDeepStrictEqual } from 'node:util';
import type { Queryable } from '../../db/database.ts';
import { saveAuthoritative } from '../brands/index.ts';
import { storeDocument } from '../documents/well-known.ts';
import type { BrandJsonProjection } from './project-brand-json.ts';
import * as sql from './sql.ts';

/**
 * Brings the operator side in line with a validated brand.json: its brands become authoritative
 * (saves answer 409; unchanged ones get no new revision), and the operator's agents and declared
 * properties are replaced when they changed. The spec's feed has no brand events; brand revisions
 * keep the history.
 */
export async function applyBrandJson(tx: Queryable, crawledDomain: string, url: string, projection: BrandJsonProjection, document: Record<string, unknown>): Promise<void> {
  for (const brand of projection.brands) await saveAuthoritative(tx, brand);
  const operator = projection.operator_domain;
  const agents = await sql.operatorAgents(tx, operator);
  const properties = await sql.operatorProperties(tx, operator);
  const sameAgents = isDeepStrictEqual(sorted(agents, (a) => a.agent_id), sorted(projection.agents, (a) => a.agent_id));
  const sameProperties = isDeepStrictEqual(
    sorted(properties, propertyKey),
    sorted(projection.properties, propertyKey),
  );
  if (!sameAgents || !sameProperties) await sql.replaceOperator(tx, operator, projection.agents, projection.properties);
  await storeDocument(tx, crawledDomain, 'brand_json', url, document);
}

const propertyKey = (p: sql.OperatorProperty) => `${p.brand_id}\u0000${p.property_type}\u0000${p.identifier}`;

function sorted<T>(items: T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
