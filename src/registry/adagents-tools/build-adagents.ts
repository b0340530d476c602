import type { Queryable } from '../../db/database.ts';
import { normalizeDomain } from '../../protocol/domain.ts';
import { ApError } from '../../protocol/errors.ts';
import { dottedField, pointerTokens } from '../../protocol/json-path.ts';
import { isRecord } from '../../protocol/json-values.ts';
import type { Issue } from '../documents/adagents-validation/findings.ts';
import { validateAdagents } from '../documents/adagents-validation/validate.ts';
import type { CreateBody } from './schemas/index.ts';
import * as sql from './sql.ts';

interface FieldIssue {
  in: 'body';
  field: string;
  message: string;
}

// The selector each authorization_type carries, to infer the type from the selector given.
const selectorOf: Record<string, string> = {
  property_ids: 'property_ids',
  property_tags: 'property_tags',
  inline_properties: 'properties',
  publisher_properties: 'publisher_properties',
  signal_ids: 'signal_ids',
  signal_tags: 'signal_tags',
};

const maxListedPropertyIds = 20_000;

/**
 * An adagents.json for a publisher from its properties (given, the registry's copy, or none) and
 * the agents it authorizes, checked against the published schema and the validator before it is
 * answered: a file with errors is the caller's bad input (400 naming the body's field), never an
 * answer. An agent without a selector is authorized for every property, by id; one without
 * `authorized_for` gets a description of its selector.
 */
export async function buildAdagents(
  db: Queryable,
  body: CreateBody,
  now: Date,
): Promise<{ document: Record<string, unknown>; warnings: Issue[]; publisher: string | undefined }> {
  const publisher =
    body.publisher_domain === undefined
      ? undefined
      : normalizeDomain(body.publisher_domain, { in: 'body', field: 'publisher_domain' });
  const fromRegistry = body.properties_from === 'registry';
  if (fromRegistry && body.properties !== undefined) {
    refuse([
      { in: 'body', field: 'properties', message: 'give either properties or properties_from: "registry", not both' },
    ]);
  }
  let properties = body.properties as Record<string, unknown>[] | undefined;
  if (fromRegistry) {
    if (publisher === undefined)
      refuse([
        {
          in: 'body',
          field: 'publisher_domain',
          message: 'properties_from: "registry" takes the properties the registry holds for publisher_domain; give it',
        },
      ]);
    properties = await sql.registryProperties(db, publisher);
    if (properties.length === 0)
      refuse([
        {
          in: 'body',
          field: 'properties_from',
          message: `the registry holds no properties for ${publisher}; give them in properties`,
        },
      ]);
  }

  const agents = body.authorized_agents.map((agent, index) => withSelector(agent, index, properties, fromRegistry));
  // Each agent without a selector lists every property id: bound what a small body can ask us to write.
  const listed = agents.reduce(
    (sum, agent) => sum + (Array.isArray(agent['property_ids']) ? agent['property_ids'].length : 0),
    0,
  );
  if (listed > maxListedPropertyIds) {
    refuse([
      {
        in: 'body',
        field: 'authorized_agents',
        message: `the file would list ${listed} property ids across its agents (at most ${maxListedPropertyIds}); give agents a selector such as property_tags`,
      },
    ]);
  }
  const document: Record<string, unknown> = {
    ...(body.include_schema === false ? {} : { $schema: '/schemas/3.0.6/adagents.json' }),
    ...(body.contact ? { contact: body.contact } : {}),
    ...(properties ? { properties } : {}),
    ...(body.tags ? { tags: body.tags } : {}),
    ...(body.placements ? { placements: body.placements } : {}),
    ...(body.placement_tags ? { placement_tags: body.placement_tags } : {}),
    // Fields of later adagents.json versions the protocol's client sends; 3.0.6 allows them as extensions.
    ...(body.formats ? { formats: body.formats } : {}),
    ...(body.catalog_etag !== undefined ? { catalog_etag: body.catalog_etag } : {}),
    authorized_agents: agents,
    ...(body.include_timestamp === false ? {} : { last_updated: now.toISOString() }),
  };
  const { errors, warnings } = validateAdagents(document, { now });
  if (errors.length > 0)
    refuse(errors.map((error) => ({ in: 'body', field: fieldOf(error, fromRegistry), message: error.message })));
  return { document, warnings, publisher };
}

function withSelector(
  given: CreateBody['authorized_agents'][number],
  index: number,
  properties: Record<string, unknown>[] | undefined,
  fromRegistry: boolean,
): Record<string, unknown> {
  // The entry passes through with whatever else adagents.json allows in it.
  const agent = given as Record<string, unknown>;
  if (typeof agent['authorization_type'] === 'string') return described(agent);
  const selector = Object.entries(selectorOf).find(([, field]) => agent[field] !== undefined);
  if (selector) return described({ ...agent, authorization_type: selector[0] });
  if (properties === undefined) {
    refuse([
      {
        in: 'body',
        field: 'properties',
        message: `authorized_agents.${index} has no selector, so it is authorized for every property of the file, and the body gives none: give properties (or publisher_domain with properties_from: "registry"), or give the agent a selector`,
      },
    ]);
  }
  const missing = properties.findIndex((p) => !isRecord(p) || typeof p['property_id'] !== 'string');
  if (missing >= 0) {
    const field = fromRegistry ? 'properties_from' : `properties.${missing}.property_id`;
    refuse([
      {
        in: 'body',
        field,
        message: `authorized_agents.${index} selects every property by id, so each property needs a property_id; or give the agent a selector (property_tags, ...)`,
      },
    ]);
  }
  const ids = [...new Set(properties.map((p) => p['property_id'] as string))];
  return described({ ...agent, authorization_type: 'property_ids', property_ids: ids }, 'Every property in this file');
}

/** url and authorized_for first, as people write the file; an agent given no authorized_for gets its selector in words. */
function described(agent: Record<string, unknown>, whole?: string): Record<string, unknown> {
  const { url, authorized_for, ...rest } = agent;
  return { url, authorized_for: authorized_for ?? whole ?? selectorInWords(agent), ...rest };
}

const maxAuthorizedFor = 500;

function selectorInWords(agent: Record<string, unknown>): string {
  const names = (field: string) =>
    Array.isArray(agent[field]) ? agent[field].filter((v): v is string => typeof v === 'string') : [];
  const kinds: Record<string, [string, string]> = {
    property_ids: ['Properties', 'property_ids'],
    property_tags: ['Properties tagged', 'property_tags'],
    signal_ids: ['Signals', 'signal_ids'],
    signal_tags: ['Signals tagged', 'signal_tags'],
  };
  const type = agent['authorization_type'];
  const kind = typeof type === 'string' ? kinds[type] : undefined;
  let words = 'The inventory its selector names';
  if (kind && names(kind[1]).length > 0) words = `${kind[0]} ${names(kind[1]).join(', ')}`;
  else if (type === 'inline_properties') words = 'The properties listed with it';
  else if (type === 'publisher_properties' && Array.isArray(agent['publisher_properties'])) {
    const domains = agent['publisher_properties'].flatMap((s) =>
      isRecord(s) && typeof s['publisher_domain'] === 'string' ? [s['publisher_domain']] : [],
    );
    if (domains.length > 0) words = `Properties of ${[...new Set(domains)].join(', ')}`;
  }
  return words.length > maxAuthorizedFor ? `${words.slice(0, maxAuthorizedFor - 1)}…` : words;
}

/** The body field a finding about the built file comes from: the file's fields are the body's, but registry properties are not the caller's. */
function fieldOf(error: Issue, fromRegistry: boolean): string {
  const segments = pointerTokens(error.pointer);
  if (fromRegistry && segments[0] === 'properties') return 'properties_from';
  return segments.length > 0 ? dottedField(segments) : 'authorized_agents';
}

function refuse(details: FieldIssue[]): never {
  const first = details[0]!;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  throw new ApError('validation_failed', `Invalid body.${first.field}: ${first.message}${more}.`, { details });
}
