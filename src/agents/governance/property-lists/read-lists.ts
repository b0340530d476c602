import type { AuthorizationIndex } from '../../../registry/lookups/index.ts';
import {
  accountRefInput,
  keysetList,
  ownerOf,
  pageRequestInput,
  paginate,
  publishedSchemas,
  textInput,
  type AgentTask,
  type PageRequest,
  type TaskArguments,
} from '../../runtime/index.ts';
import { identifiersOf, resolveList, type Identifier } from './resolve-list.ts';
import * as sql from './sql.ts';
import type { ListRow } from './sql.ts';
import { cacheHours, wireList } from './wire-list.ts';
import { ownList } from './write-lists.ts';

/** A page of a resolved list holds up to this many identifiers (the published maximum), 1,000 unless asked. */
const maxIdentifiers = 10_000;
const defaultIdentifiers = 1000;
/** Resolved lists kept, so the pages of one list cost one resolution while the index stands still. */
const keptResolutions = 64;

type Resolution = { members: number; identifiers: Identifier[] };

/**
 * The lists resolved lately, each valid while neither the index (`version`) nor the list's
 * definition has changed: reading a long list page by page resolves it once. Oldest dropped first.
 */
class Resolutions {
  readonly #kept = new Map<
    string,
    { version: number; index: AuthorizationIndex; definition: string; resolution: Resolution }
  >();

  of(index: AuthorizationIndex, row: ListRow): Resolution {
    const definition = JSON.stringify(row.definition);
    const kept = this.#kept.get(row.list_id);
    if (kept && kept.index === index && kept.version === index.version && kept.definition === definition)
      return kept.resolution;
    const members = resolveList(index, row.definition);
    const resolution = { members: members.length, identifiers: identifiersOf(members) };
    this.#kept.delete(row.list_id);
    if (this.#kept.size >= keptResolutions) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(row.list_id, { version: index.version, index, definition, resolution });
    return resolution;
  }
}

interface GetArgs extends TaskArguments {
  list_id: string;
  resolve?: boolean;
  pagination?: PageRequest;
}

/**
 * `get_property_list` (property/get-property-list-request.json): the list and, unless `resolve` is
 * false, its members' identifiers as the registry's authorization index holds them at this moment,
 * paged (up to 10,000 a page). The index is in memory: resolving reads no table.
 */
export function getPropertyListTask(authorization: () => AuthorizationIndex): AgentTask<GetArgs> {
  const resolutions = new Resolutions();
  return {
    name: 'get_property_list',
    description:
      'Read one of your property lists and (resolve, the default) its members’ identifiers, resolved from the registry now: only properties whose publisher’s adagents.json is current and that some agent is authorized for. Paged up to 10,000 identifiers.',
    input: {
      type: 'object',
      properties: {
        list_id: { type: 'string', maxLength: 255 },
        resolve: { type: 'boolean' },
        pagination: {
          type: 'object',
          properties: {
            max_results: { type: 'integer', minimum: 1, maximum: maxIdentifiers },
            cursor: { type: 'string' },
          },
        },
        account: accountRefInput,
      },
      required: ['list_id'],
      additionalProperties: true,
    },
    ...publishedSchemas('property/get-property-list'),
    mutates: false,
    async handler(args, ctx) {
      const row = await ownList(ctx.db, ownerOf(ctx.principal), args.list_id);
      if (args.resolve === false) return { list: wireList(row) };
      const { members, identifiers } = resolutions.of(authorization(), row);
      const { page, pagination } = paginate(identifiers, {
        max_results: args.pagination?.max_results ?? defaultIdentifiers,
        ...(args.pagination?.cursor === undefined ? {} : { cursor: args.pagination.cursor }),
      });
      const now = ctx.clock.now();
      return {
        list: wireList(row, members),
        identifiers: page,
        pagination,
        resolved_at: now.toISOString(),
        cache_valid_until: new Date(now.getTime() + cacheHours * 3_600_000).toISOString(),
      };
    },
  };
}

/** `list_property_lists`: the caller's lists (metadata only), in the order they were made. */
export function listPropertyListsTask(): AgentTask<
  { name_contains?: string; pagination?: PageRequest } & TaskArguments
> {
  return {
    name: 'list_property_lists',
    description: 'List your property lists (metadata only), optionally those whose name contains a text. Paginated.',
    input: {
      type: 'object',
      properties: {
        name_contains: textInput('name', 'Only lists whose name contains this'),
        pagination: pageRequestInput,
        account: accountRefInput,
      },
      additionalProperties: true,
    },
    ...publishedSchemas('property/list-property-lists'),
    mutates: false,
    async handler(args, ctx) {
      const owner = ownerOf(ctx.principal);
      const { page, pagination } = await keysetList('l', args.pagination, {
        rowsAfter: (after, limit) => sql.listsAfter(ctx.db, owner, args.name_contains, after, limit),
        count: () => sql.countLists(ctx.db, owner, args.name_contains),
      });
      return { lists: page.map((row) => wireList(row)), pagination };
    },
  };
}
