import { isDeepStrictEqual } from 'node:util';
import type { Queryable } from '../../db/database.ts';
import { saveAuthoritative } from '../brands/index.ts';
import { storeDocument } from '../documents/well-known.ts';
import { appendEvents } from '../feed/index.ts';
import type { ApplySummary } from './apply-adagents.ts';
import { propertyEvent } from './events.ts';
import { declarationsOf } from './operator-declarations.ts';
import type { BrandJsonProjection } from './project-brand-json.ts';
import * as sql from './sql/index.ts';

/**
 * Brings the operator side in line with a validated brand.json: its brands become authoritative
 * (saves answer 409; unchanged ones get no new revision), and the operator's agents and declared
 * properties are replaced when they changed. The spec's feed has no brand events; brand revisions
 * keep the history, and this registry's own `resolution.brand_updated` tells mirrors what resolve
 * answers. What readers of the feed need of the operator side travels in property events: each
 * catalog property whose operator declarations change gets a `property.updated`.
 */
export async function applyBrandJson(
  tx: Queryable,
  crawledDomain: string,
  url: string,
  projection: BrandJsonProjection,
  document: Record<string, unknown>,
): Promise<ApplySummary> {
  let events = 0;
  for (const brand of projection.brands) events += (await saveAuthoritative(tx, brand)).events;
  const operator = projection.operator_domain;
  const agents = await sql.operatorAgents(tx, operator);
  const properties = await sql.operatorProperties(tx, operator);
  const sameAgents = isDeepStrictEqual(
    sorted(agents, (a) => a.agent_id),
    sorted(projection.agents, (a) => a.agent_id),
  );
  const sameProperties = isDeepStrictEqual(sorted(properties, propertyKey), sorted(projection.properties, propertyKey));
  if (!sameAgents || !sameProperties) {
    const reached = await sql.propertiesWithValues(tx, [
      ...new Set([...properties, ...projection.properties].map((p) => p.identifier)),
    ]);
    const before = await declarationsOf(tx, reached);
    await sql.replaceOperator(tx, operator, projection.agents, projection.properties);
    const after = await declarationsOf(tx, reached);
    const changed = reached.flatMap((row, i) =>
      isDeepStrictEqual(before[i], after[i])
        ? []
        : [
            propertyEvent(
              'property.updated',
              { ...row, operator_declarations: after[i]! },
              { changed_fields: ['operator_declarations'] },
            ),
          ],
    );
    await appendEvents(tx, changed);
    events += changed.length;
  }
  await storeDocument(tx, crawledDomain, 'brand_json', url, document);
  return { events };
}

const propertyKey = (p: sql.OperatorProperty) => `${p.brand_id}\u0000${p.property_type}\u0000${p.identifier}`;

function sorted<T>(items: T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
