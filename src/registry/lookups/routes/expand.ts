import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../../protocol/wire/error.ts';
import type { IndexFollower } from '../index-follower.ts';
import type { Identifier } from '../index-records.ts';
import { publisherStatus } from '../render.ts';
import { ExpandBody, ExpandResponse, maxSelectors } from '../schemas.ts';
import { readSelectors, selectedProperties } from '../selectors.ts';
import { liveIndex } from './live-index.ts';

/** `POST /api/registry/expand/product-identifiers`: property selectors → the concrete identifiers. */
export function expandRoute(app: FastifyInstance, follower: IndexFollower): void {
  app.post<{ Body: ExpandBody }>(
    '/api/registry/expand/product-identifiers',
    {
      schema: {
        summary: 'Expand property selectors to identifiers',
        description: `A product's \`publisher_properties\` (core/publisher-property-selector.json: \`all\`, \`by_id\`, \`by_tag\`, plus \`inline\` properties), up to ${maxSelectors}, expanded against the publishers' adagents.json to the properties and identifiers they select. A malformed selector is a 400 naming it.`,
        tags: ['Lookups & Authorization'],
        body: ExpandBody,
        response: { 200: ExpandResponse, ...errorResponses(400, 413, 415, 503) },
      },
    },
    async (request) => {
      const selectors = readSelectors(request.body.publisher_properties);
      const index = liveIndex(follower);
      const seen = new Map<string, Identifier>();
      const out = selectors.map((s, i) => {
        const properties =
          s.selection_type === 'inline'
            ? s.properties.map((p) => ({ property_rid: null, property_id: null, name: p.name, property_type: p.property_type, identifiers: p.identifiers }))
            : selectedProperties(index, s).map((p) => ({ property_rid: p.rid, property_id: p.propertyId, name: p.name, property_type: p.type, identifiers: p.identifiers }));
        const identifiers = unique(properties.flatMap((p) => p.identifiers));
        for (const id of identifiers) seen.set(key(id), id);
        return {
          index: i,
          selection_type: s.selection_type,
          publisher_domain: s.selection_type === 'inline' ? null : s.publisher_domain,
          publisher_status: s.selection_type === 'inline' ? ('inline' as const) : publisherStatus(index, s.publisher_domain),
          properties,
          identifiers,
        };
      });
      return { selectors: out, identifiers: [...seen.values()] };
    },
  );
}

const key = (i: Identifier) => `${i.type}\u0000${i.value}`;

function unique(ids: Identifier[]): Identifier[] {
  return [...new Map(ids.map((i) => [key(i), i])).values()];
}
