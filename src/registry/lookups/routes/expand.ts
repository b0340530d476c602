import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../clock.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import type { IndexSource } from '../index-source.ts';
import type { Identifier } from '../index-records.ts';
import { publisherStatus } from '../render.ts';
import { ExpandBody, ExpandResponse, maxSelectors } from '../schemas/index.ts';
import { readSelectors, selectedProperties } from '../selectors.ts';
import { liveIndex } from './live-index.ts';

interface ExpandedProperty {
  property_rid: string | null;
  property_id: string | null;
  publisher_domain: string | null;
  name: string;
  property_type: string;
  identifiers: readonly Identifier[];
}

/** `POST /api/registry/expand/product-identifiers`: property selectors → the concrete identifiers. */
export function expandRoute(app: FastifyInstance, follower: IndexSource, clock: Clock): void {
  app.post<{ Body: ExpandBody }>(
    '/api/registry/expand/product-identifiers',
    {
      schema: {
        summary: 'Expand property selectors to identifiers',
        description: `A product's \`publisher_properties\` (core/publisher-property-selector.json: \`all\`, \`by_id\`, \`by_tag\`, plus \`inline\` properties; or, without \`selection_type\`, the protocol's registry client's \`{publisher_domain, property_types?, property_ids?, tags?}\`), up to ${maxSelectors}, expanded against the publishers' adagents.json to the properties and identifiers they select. \`agent_url\` may be sent and is echoed. A malformed selector is a 400 naming it.`,
        tags: ['Lookups & Authorization'],
        body: ExpandBody,
        response: { 200: ExpandResponse, ...errorResponses(400, 413, 415, 503) },
      },
    },
    async (request) => {
      const selectors = readSelectors(request.body.publisher_properties);
      const index = liveIndex(follower);
      // Every property once (catalog ones by rid), and every identifier once with the first property carrying it.
      const properties = new Map<string | object, ExpandedProperty>();
      const identifiers = new Map<
        string,
        Identifier & { property_id: string | null; publisher_domain: string | null }
      >();
      const out = selectors.map((s, i) => {
        const selected: ExpandedProperty[] =
          s.selection_type === 'inline'
            ? s.properties.map((p) => ({
                property_rid: null,
                property_id: null,
                publisher_domain: null,
                name: p.name,
                property_type: p.property_type,
                identifiers: p.identifiers,
              }))
            : selectedProperties(index, s).map((p) => ({
                property_rid: p.rid,
                property_id: p.propertyId,
                publisher_domain: p.publisher,
                name: p.name,
                property_type: p.type,
                identifiers: p.identifiers,
              }));
        for (const p of selected) {
          properties.set(p.property_rid ?? p, p);
          for (const id of p.identifiers)
            if (!identifiers.has(key(id)))
              identifiers.set(key(id), {
                type: id.type,
                value: id.value,
                property_id: p.property_id,
                publisher_domain: p.publisher_domain,
              });
        }
        return {
          index: i,
          selection_type: s.selection_type,
          publisher_domain: s.selection_type === 'inline' ? null : s.publisher_domain,
          publisher_status:
            s.selection_type === 'inline' ? ('inline' as const) : publisherStatus(index, s.publisher_domain),
          properties: selected.map(({ publisher_domain: _, ...p }) => p),
          identifiers: unique(selected.flatMap((p) => p.identifiers)),
        };
      });
      return {
        ...(request.body.agent_url === undefined ? {} : { agent_url: request.body.agent_url }),
        selectors: out,
        properties: [...properties.values()],
        identifiers: [...identifiers.values()],
        property_count: properties.size,
        identifier_count: identifiers.size,
        generated_at: clock.now().toISOString(),
      };
    },
  );
}

const key = (i: Identifier) => `${i.type}\u0000${i.value}`;

function unique(ids: readonly Identifier[]): Identifier[] {
  return [...new Map(ids.map((i) => [key(i), i])).values()];
}
