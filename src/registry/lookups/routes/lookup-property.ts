import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { normalizeIdentifier } from '../authorization-index.ts';
import type { IndexFollower } from '../index-follower.ts';
import { propertySummary } from '../render.ts';
import { PropertyLookup, PropertyLookupQuery } from '../schemas.ts';
import { grantsOver } from './lookup-domain.ts';
import { liveIndex } from './live-index.ts';
import { perImpression } from './per-impression.ts';

/** `GET /api/registry/lookup/property`: the properties an identifier names, and who may sell them. */
export function lookupPropertyRoute(app: FastifyInstance, follower: IndexFollower): void {
  app.get<{ Querystring: Static<typeof PropertyLookupQuery> }>(
    '/api/registry/lookup/property',
    {
      config: perImpression,
      schema: {
        summary: 'Agents authorized for a property identifier',
        description: 'By identifier type and value (`domain`, `ios_bundle`, `roku_store_id`, ...): the catalog properties with that identifier and every authorization covering them.',
        tags: ['Lookups & Authorization'],
        querystring: PropertyLookupQuery,
        response: { 200: PropertyLookup, ...errorResponses(400, 503) },
      },
    },
    async (request) => {
      const index = liveIndex(follower);
      const { identifier_type: type, identifier_value: value } = request.query;
      const properties = index.propertiesByIdentifier(type, value);
      return {
        identifier: { type, value: normalizeIdentifier(type, value) },
        properties: properties.map(propertySummary),
        agents: grantsOver(index, properties).map(({ properties: covered, ...grant }) => ({ ...grant, property_rids: covered.map((p) => p.property_rid) })),
      };
    },
  );
}
