import { hash, randomBytes, randomUUID } from 'node:crypto';
import { AgentError } from '../../../protocol/errors.ts';
import {
  accountRefInput,
  ownerOf,
  publishedSchemas,
  textInput,
  type AgentTask,
  type TaskArguments,
} from '../../runtime/index.ts';
import type { BasePropertySource, ListDefinition } from './resolve-list.ts';
import * as sql from './sql.ts';
import { wireList } from './wire-list.ts';

interface ListFields extends TaskArguments {
  name?: string;
  description?: string;
  base_properties?: BasePropertySource[];
  filters?: ListDefinition['filters'];
  brand?: Record<string, unknown>;
  webhook_url?: string;
}

/** What a list's definition takes, as the tools list advertises it (the published request decides). */
const definitionInput = {
  name: textInput('name', 'Human-readable name for the list'),
  description: textInput('prose', 'What the list is for'),
  base_properties: {
    type: 'array',
    minItems: 1,
    maxItems: 1000,
    description:
      'property/base-property-source.json: {selection_type: publisher_tags, publisher_domain, tags} | {selection_type: publisher_ids, publisher_domain, property_ids} | {selection_type: identifiers, identifiers}. Every registry property when absent.',
  },
  filters: { type: 'object', description: 'property/property-list-filters.json: property_types, exclude_identifiers…' },
  brand: { type: 'object', description: 'core/brand-ref.json.' },
  account: accountRefInput,
};

/** `create_property_list` (property/create-property-list-request.json): a list of the caller's, and the token sellers fetch it with. */
export function createPropertyListTask(): AgentTask<ListFields & { name: string }> {
  return {
    name: 'create_property_list',
    description:
      'Create a property list: sources (publisher tags, publisher property ids, identifiers) and filters over the registry’s properties. Its members are resolved live from the registry whenever it is read (get_property_list). Answers the list and an auth_token to share with sellers, answered only now.',
    input: { type: 'object', properties: definitionInput, required: ['name'], additionalProperties: true },
    ...publishedSchemas('property/create-property-list'),
    mutates: true,
    async handler(args, ctx) {
      const token = randomBytes(32).toString('base64url');
      const now = ctx.clock.now();
      const row = await sql.insertList(ctx.db, {
        list_id: `pl_${randomUUID()}`,
        owner: ownerOf(ctx.principal),
        name: args.name,
        description: args.description ?? null,
        definition: definitionOf(args),
        webhook_url: null,
        authTokenHash: hash('sha256', token, 'buffer'),
        created_at: now,
      });
      return { list: wireList(row), auth_token: token };
    },
  };
}

/** `update_property_list`: what it names replaces the list's (sources and filters whole, not patched). */
export function updatePropertyListTask(): AgentTask<ListFields & { list_id: string }> {
  return {
    name: 'update_property_list',
    description:
      'Update one of your property lists: name, description, base_properties and filters (each replaced whole), brand, webhook_url ("" removes it).',
    input: {
      type: 'object',
      properties: {
        list_id: { type: 'string', maxLength: 255 },
        ...definitionInput,
        webhook_url: { type: 'string', maxLength: 2048, description: 'An http(s) URL; "" removes it.' },
      },
      required: ['list_id'],
      additionalProperties: true,
    },
    ...publishedSchemas('property/update-property-list'),
    // "" removes the webhook, as the schema's description says, though its `format: uri` refuses it.
    publishedForm: ({ webhook_url, ...rest }) => (webhook_url === '' ? rest : { ...rest, webhook_url }),
    mutates: true,
    async handler(args, ctx) {
      if (args.webhook_url) webhookUrl(args.webhook_url);
      const row = await ownList(ctx.db, ownerOf(ctx.principal), args.list_id);
      const definition = { ...row.definition, ...definitionOf(args) };
      const updated = await sql.updateList(ctx.db, {
        ...row,
        name: args.name ?? row.name,
        description: args.description ?? row.description,
        definition,
        webhook_url: args.webhook_url === undefined ? row.webhook_url : args.webhook_url || null,
        updated_at: ctx.clock.now(),
      });
      return { list: wireList(updated) };
    },
  };
}

/** `delete_property_list`. */
export function deletePropertyListTask(): AgentTask<{ list_id: string } & TaskArguments> {
  return {
    name: 'delete_property_list',
    description: 'Delete one of your property lists; sellers holding its token can no longer fetch it.',
    input: {
      type: 'object',
      properties: { list_id: { type: 'string', maxLength: 255 }, account: definitionInput.account },
      required: ['list_id'],
      additionalProperties: true,
    },
    ...publishedSchemas('property/delete-property-list'),
    mutates: true,
    async handler(args, ctx) {
      if (!(await sql.deleteList(ctx.db, ownerOf(ctx.principal), args.list_id))) throw notFound(args.list_id);
      return { deleted: true, list_id: args.list_id };
    },
  };
}

export async function ownList(db: Parameters<typeof sql.listOf>[0], owner: string, listId: string) {
  const row = await sql.listOf(db, owner, listId);
  if (!row) throw notFound(listId);
  return row;
}

/** A webhook URL the sender can use: absolute http(s); where it leads is the SSRF-safe client's to judge at each delivery. */
function webhookUrl(value: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new AgentError('INVALID_REQUEST', 'webhook_url must be an absolute http(s) URL ("" removes it).', {
      field: 'webhook_url',
    });
}

function notFound(listId: string): AgentError {
  return new AgentError('REFERENCE_NOT_FOUND', `No property list ${listId} of yours.`, { field: 'list_id' });
}

function definitionOf(args: ListFields): ListDefinition & { brand?: Record<string, unknown> } {
  return {
    ...(args.base_properties ? { base_properties: args.base_properties } : {}),
    ...(args.filters ? { filters: args.filters } : {}),
    ...(args.brand ? { brand: args.brand } : {}),
  };
}
