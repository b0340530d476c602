import { hash, randomBytes, randomUUID } from 'node:crypto';
import { AgentError } from '../../../protocol/errors.ts';
import { httpUrl } from '../../../protocol/http-url.ts';
import {
  accountRefInput,
  idInput,
  ownerOf,
  publishedSchemas,
  textInput,
  type AgentTask,
  type TaskArguments,
} from '../../runtime/index.ts';
import type { ListDefinition, ListKind } from './kind.ts';
import * as sql from './sql.ts';
import { wireList } from './wire-list.ts';

interface ListFields extends TaskArguments {
  name?: string;
  description?: string;
  filters?: Record<string, unknown>;
  brand?: Record<string, unknown>;
  webhook_url?: string;
}

/** What a list's definition takes, as the tools list advertises it (the published request decides). */
function definitionInput(kind: ListKind) {
  return {
    name: textInput('name', 'Human-readable name for the list'),
    ...(kind.described ? { description: textInput('prose', 'What the list is for') } : {}),
    [kind.sourcesField]: { type: 'array', minItems: 1, maxItems: 1000, description: kind.sourcesHelp },
    filters: { type: 'object', description: kind.filtersHelp },
    brand: { type: 'object', description: 'core/brand-ref.json.' },
    account: accountRefInput,
  };
}

/** `create_<noun>_list`: a list of the caller's, and the token sellers fetch it with. */
export function createListTask(kind: ListKind): AgentTask<ListFields & { name: string }> {
  return {
    name: `create_${kind.noun}_list`,
    description: `Create a ${kind.noun} list: sources and filters over the registry’s ${kind.members}. Its members are resolved live from the registry whenever it is read (get_${kind.noun}_list). Answers the list and an auth_token to share with sellers, answered only now.`,
    input: { type: 'object', properties: definitionInput(kind), required: ['name'], additionalProperties: true },
    ...publishedSchemas(`${kind.schemas}/create-${kind.noun}-list`),
    mutates: true,
    async handler(args, ctx) {
      const token = randomBytes(32).toString('base64url');
      const now = ctx.clock.now();
      const row = await sql.insertList(ctx.db, {
        list_id: `${kind.idPrefix}${randomUUID()}`,
        kind: kind.noun,
        owner: ownerOf(ctx.principal),
        name: args.name,
        description: kind.described ? (args.description ?? null) : null,
        definition: definitionOf(kind, args),
        webhook_url: null,
        authTokenHash: hash('sha256', token, 'buffer'),
        created_at: now,
      });
      return { list: wireList(kind, row), auth_token: token };
    },
  };
}

/** `update_<noun>_list`: what it names replaces the list's (sources and filters whole, not patched). */
export function updateListTask(kind: ListKind): AgentTask<ListFields & { list_id: string }> {
  return {
    name: `update_${kind.noun}_list`,
    description: `Update one of your ${kind.noun} lists: name, ${kind.sourcesField} and filters (each replaced whole), brand, webhook_url ("" removes it).`,
    input: {
      type: 'object',
      properties: {
        list_id: idInput,
        ...definitionInput(kind),
        webhook_url: { type: 'string', maxLength: 2048, description: 'An http(s) URL; "" removes it.' },
      },
      required: ['list_id'],
      additionalProperties: true,
    },
    ...publishedSchemas(`${kind.schemas}/update-${kind.noun}-list`),
    // "" removes the webhook, as the schema's description says, though its `format: uri` refuses it.
    publishedForm: ({ webhook_url, ...rest }) => (webhook_url === '' ? rest : { ...rest, webhook_url }),
    mutates: true,
    async handler(args, ctx) {
      if (args.webhook_url) webhookUrl(args.webhook_url);
      const row = await ownList(ctx.db, kind, ownerOf(ctx.principal), args.list_id);
      const updated = await sql.updateList(ctx.db, {
        ...row,
        name: args.name ?? row.name,
        description: kind.described ? (args.description ?? row.description) : null,
        definition: { ...row.definition, ...definitionOf(kind, args) },
        webhook_url: args.webhook_url === undefined ? row.webhook_url : args.webhook_url || null,
        updated_at: ctx.clock.now(),
      });
      return { list: wireList(kind, updated) };
    },
  };
}

/** `delete_<noun>_list`. */
export function deleteListTask(kind: ListKind): AgentTask<{ list_id: string } & TaskArguments> {
  return {
    name: `delete_${kind.noun}_list`,
    description: `Delete one of your ${kind.noun} lists; sellers holding its token can no longer fetch it.`,
    input: {
      type: 'object',
      properties: { list_id: idInput, account: accountRefInput },
      required: ['list_id'],
      additionalProperties: true,
    },
    ...publishedSchemas(`${kind.schemas}/delete-${kind.noun}-list`),
    mutates: true,
    async handler(args, ctx) {
      if (!(await sql.deleteList(ctx.db, kind.noun, ownerOf(ctx.principal), args.list_id)))
        throw notFound(kind, args.list_id);
      return { deleted: true, list_id: args.list_id };
    },
  };
}

/** The caller's list of this kind; REFERENCE_NOT_FOUND for any other. */
export async function ownList(db: Parameters<typeof sql.listOf>[0], kind: ListKind, owner: string, listId: string) {
  const row = await sql.listOf(db, kind.noun, owner, listId);
  if (!row) throw notFound(kind, listId);
  return row;
}

/** A webhook URL the sender can use: absolute http(s); where it leads is the SSRF-safe client's to judge at each delivery. */
function webhookUrl(value: string): void {
  if (!httpUrl(value))
    throw new AgentError('INVALID_REQUEST', 'webhook_url must be an absolute http(s) URL ("" removes it).', {
      field: 'webhook_url',
    });
}

function notFound(kind: ListKind, listId: string): AgentError {
  return new AgentError('REFERENCE_NOT_FOUND', `No ${kind.noun} list ${listId} of yours.`, { field: 'list_id' });
}

function definitionOf(kind: ListKind, args: ListFields): ListDefinition {
  const sources = args[kind.sourcesField];
  return {
    ...(sources ? { [kind.sourcesField]: sources } : {}),
    ...(args.filters ? { filters: args.filters } : {}),
    ...(args.brand ? { brand: args.brand } : {}),
  };
}
