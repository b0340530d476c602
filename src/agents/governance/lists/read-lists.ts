import type { AuthorizationIndex } from '../../../registry/lookups/index.ts';
import {
  accountRefInput,
  idInput,
  keysetList,
  ownerOf,
  pageRequestInput,
  largePageRequestInput,
  paginateLarge,
  publishedSchemas,
  textInput,
  type AgentTask,
  type PageRequest,
  type TaskArguments,
} from '../../runtime/index.ts';
import type { ListKind, Resolution } from './kind.ts';
import * as sql from './sql.ts';
import type { ListRow } from './sql.ts';
import { wireList } from './wire-list.ts';
import { ownList } from './write-lists.ts';

/** Resolved lists kept, so the pages of one list cost one resolution while the index stands still. */
const keptResolutions = 64;

/**
 * The lists resolved lately, each valid while neither the index (`version`) nor the list's
 * definition has changed: reading a long list page by page resolves it once. Oldest dropped first.
 */
class Resolutions {
  readonly #kept = new Map<
    string,
    { version: number; index: AuthorizationIndex; definition: string; resolution: Resolution }
  >();

  readonly #kind: ListKind;

  constructor(kind: ListKind) {
    this.#kind = kind;
  }

  of(index: AuthorizationIndex, row: ListRow): Resolution {
    const definition = JSON.stringify(row.definition);
    const kept = this.#kept.get(row.list_id);
    if (kept && kept.index === index && kept.version === index.version && kept.definition === definition)
      return kept.resolution;
    const resolution = this.#kind.resolve(index, row.definition);
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
 * `get_<noun>_list`: the list and, unless `resolve` is false, its members as the registry's
 * authorization index holds them at this moment, paged (up to 10,000 a page). The index is in
 * memory: resolving reads no table.
 */
export function getListTask(kind: ListKind, authorization: () => AuthorizationIndex): AgentTask<GetArgs> {
  const resolutions = new Resolutions(kind);
  return {
    name: `get_${kind.noun}_list`,
    description: `Read one of your ${kind.noun} lists and (resolve, the default) its ${kind.itemsField}, resolved from the registry now: only ${kind.members} whose publisher’s adagents.json is current. Paged up to 10,000.`,
    input: {
      type: 'object',
      properties: {
        list_id: idInput,
        resolve: { type: 'boolean' },
        pagination: largePageRequestInput,
        account: accountRefInput,
      },
      required: ['list_id'],
      additionalProperties: true,
    },
    ...publishedSchemas(`${kind.schemas}/get-${kind.noun}-list`),
    mutates: false,
    async handler(args, ctx) {
      const row = await ownList(ctx.db, kind, ownerOf(ctx.principal), args.list_id);
      if (args.resolve === false) return { list: wireList(kind, row) };
      const { count, items, beside } = resolutions.of(authorization(), row);
      const { page, pagination } = paginateLarge(items, args.pagination);
      const now = ctx.clock.now();
      return {
        list: wireList(kind, row, count),
        [kind.itemsField]: page,
        pagination,
        resolved_at: now.toISOString(),
        cache_valid_until: new Date(now.getTime() + kind.cacheHours * 3_600_000).toISOString(),
        ...beside,
      };
    },
  };
}

/** `list_<noun>_lists`: the caller's lists of the kind (metadata only), in the order they were made. */
export function listListsTask(
  kind: ListKind,
): AgentTask<{ name_contains?: string; pagination?: PageRequest } & TaskArguments> {
  return {
    name: `list_${kind.noun}_lists`,
    description: `List your ${kind.noun} lists (metadata only), optionally those whose name contains a text. Paginated.`,
    input: {
      type: 'object',
      properties: {
        name_contains: textInput('name', 'Only lists whose name contains this'),
        pagination: pageRequestInput,
        account: accountRefInput,
      },
      additionalProperties: true,
    },
    ...publishedSchemas(`${kind.schemas}/list-${kind.noun}-lists`),
    mutates: false,
    async handler(args, ctx) {
      const owner = ownerOf(ctx.principal);
      const { page, pagination } = await keysetList(
        'l',
        args.pagination,
        sql.listsNamed(ctx.db, kind.noun, owner, args.name_contains),
      );
      return { lists: page.map((row) => wireList(kind, row)), pagination };
    },
  };
}
