import { Type } from 'typebox';
import { Domain } from '../../protocol/wire/common.ts';
import { bulkBody, bulkResults, registryPage, registryQuery, saveResult } from '../entries/index.ts';

const Source = Type.Union([Type.Literal('adagents_json'), Type.Literal('community')]);

const AuthorizedAgent = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048 }),
    authorized_for: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

const InventoryItem = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 50, description: 'Property type, e.g. website, mobile_app, ctv_app.' }),
    name: Type.String({ minLength: 1, maxLength: 300 }),
  },
  { additionalProperties: false },
);

const Contact = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 255 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 255 })),
  },
  { additionalProperties: false },
);

export const PropertyEntry = Type.Object(
  {
    id: Type.String({ description: 'The property_rid of the entry.' }),
    publisher_domain: Type.String(),
    source: Source,
    status: Type.Union([Type.Literal('active'), Type.Literal('stale')]),
    authorized_agents: Type.Array(AuthorizedAgent),
    properties: Type.Array(InventoryItem),
    contact: Type.Optional(Contact),
    revision_number: Type.Integer({ minimum: 0 }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'PropertyEntry', description: 'What the registry knows about a publisher domain.' },
);

export { DomainQuery } from '../entries/index.ts';

export const ResolveResponse = { $ref: 'PropertyEntry#' };

export const BulkBody = bulkBody('At most 100 publisher domains.');

export const BulkResults = bulkResults('PropertyEntry');

export const SaveBody = Type.Object(
  {
    publisher_domain: Domain,
    authorized_agents: Type.Array(AuthorizedAgent, { maxItems: 500 }),
    properties: Type.Optional(Type.Array(InventoryItem, { maxItems: 1000 })),
    contact: Type.Optional(Contact),
  },
  { additionalProperties: false },
);

export const SaveResult = saveResult({}, 'Only when an existing entry was updated.', 'The saved property entry.');

export const RegistryQuery = registryQuery(Source, 'Case-insensitive substring of the publisher domain or a property name.');

export const RegistryPage = registryPage({
  listKey: 'properties',
  entry: 'PropertyEntry',
  counts: Type.Object({ adagents_json: Type.Integer(), community: Type.Integer() }, { description: 'Matching entries by source (ignoring the source filter).' }),
  description: 'A page of the property registry, ordered by publisher domain.',
});

const Issue = Type.Object({ path: Type.String({ description: 'JSON path into the document, e.g. $.authorized_agents[0].url' }), message: Type.String(), code: Type.Optional(Type.String()) });

export const Validation = Type.Object(
  {
    domain: Type.String(),
    url: Type.String(),
    valid: Type.Boolean(),
    errors: Type.Array(Issue),
    warnings: Type.Array(Issue),
  },
  { description: 'Whether the domain’s adagents.json is valid, and what to fix.' },
);
