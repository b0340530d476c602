import type { FastifyInstance } from 'fastify';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { normalizeIdentifier } from '../identifiers.ts';
import type { IndexSource } from '../index-source.ts';
import { propertySummary } from '../render.ts';
import { PropertyLookup, PropertyLookupQuery } from '../schemas/index.ts';
import { grantsOver } from './lookup-domain.ts';
import { liveIndex } from './live-index.ts';
import { perImpression } from './per-impression.ts';

/** `GET /api/registry/lookup/property`: the properties an identifier names, and who may sell them. */
export function lookupPropertyRoute(app: FastifyInstance, follower: IndexSource): void {
  app.get<{ Querystring: PropertyLookupQuery }>(
    '/api/registry/lookup/property',
    {
      config: perImpression,
      schema: {
        summary: 'Agents authorized for a property identifier',
        description:
          'By identifier type and value (`domain`, `ios_bundle`, `roku_store_id`, ...), as `identifier_type` and `identifier_value` or as `type` and `value` (the protocol’s registry client’s names): the catalog properties with that identifier and every authorization covering them.',
        tags: ['Lookups & Authorization'],
        querystring: PropertyLookupQuery,
        response: { 200: PropertyLookup, ...errorResponses(400, 503) },
      },
    },
    async (request) => {
      const index = liveIndex(follower);
      const type = oneOf(request.query, 'identifier_type', 'type');
      const value = oneOf(request.query, 'identifier_value', 'value');
      const properties = index.propertiesByIdentifier(type, value);
      const identifier = { type, value: normalizeIdentifier(type, value) };
      const agents = grantsOver(index, properties).map(({ properties: covered, ...grant }) => ({
        ...grant,
        property_rids: covered.map((p) => p.property_rid),
      }));
      return {
        identifier,
        type: identifier.type,
        value: identifier.value,
        properties: properties.map(propertySummary),
        agents,
        count: agents.length,
      };
    },
  );
}

/** A parameter given under either of its two names (the same value twice is one). */
function oneOf(
  query: PropertyLookupQuery,
  ours: 'identifier_type' | 'identifier_value',
  theirs: 'type' | 'value',
): string {
  const [a, b] = [query[ours], query[theirs]];
  const invalid = (field: string, message: string) =>
    new ApError('validation_failed', `Invalid querystring.${field}: ${message}.`, {
      details: [{ in: 'querystring', field, message }],
    });
  if (a !== undefined && b !== undefined && a !== b)
    throw invalid(theirs, `${theirs} and ${ours} are one parameter; give one`);
  const given = a ?? b;
  if (given === undefined) throw invalid(ours, `required (as ${ours} or ${theirs})`);
  return given;
}
