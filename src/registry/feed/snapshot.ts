import type { Queryable } from '../../db/database.ts';
import { decodeCursor, encodeCursor } from '../../protocol/cursor.ts';
import { ApError } from '../../protocol/errors.ts';
import type { EntityType } from './event-types.ts';
import { headEventId } from './sql.ts';

export interface SnapshotItem {
  entity_type: EntityType;
  entity_id: string;
  data: Record<string, unknown>;
}

/**
 * One kind of entity in the snapshot, provided by the capability that owns it: its current rows
 * after a keyset `after` (undefined: from the start), in a stable order, each with its key.
 */
export interface SnapshotSection {
  entityType: EntityType;
  /** The form of its keys (default `uuid`); a page token whose `after` has another form is forged. */
  keys?: 'uuid' | 'text';
  page(db: Queryable, after: string | undefined, limit: number): Promise<Array<SnapshotItem & { key: string }>>;
}

export interface SnapshotPage {
  cursor: string | null;
  items: SnapshotItem[];
  next_page_token: string | null;
  has_more: boolean;
}

/**
 * A page of the registry as it is, for bootstrapping a mirror. The feed cursor is taken before the
 * first page is read and carried in the page token, so every change not yet in the pages read
 * committed after it: a mirror that loads all pages and then applies the feed from that cursor
 * (events carry the entity's whole new state) ends identical to the registry. Events it applies
 * that the pages already showed only rewrite the same state.
 *
 * `listing` names a snapshot of other sections than the whole registry's (the catalog, the
 * collections): its tokens carry the name, so one listing's token is refused by another, whose
 * section numbers mean other sections. The registry snapshot's tokens carry none.
 */
export async function readSnapshot(
  db: Queryable,
  sections: readonly SnapshotSection[],
  token: string | undefined,
  limit: number,
  listing?: string,
): Promise<SnapshotPage> {
  const position =
    token === undefined
      ? { cursor: (await headEventId(db)) ?? '', section: 0, after: undefined as string | undefined }
      : decodeToken(token, sections, listing);
  const items: SnapshotItem[] = [];
  let { section, after } = position;
  while (section < sections.length && items.length < limit) {
    const room = limit - items.length;
    const rows = await sections[section]!.page(db, after, room + 1);
    items.push(...rows.slice(0, room).map(({ entity_type, entity_id, data }) => ({ entity_type, entity_id, data })));
    if (rows.length > room) {
      after = rows[room - 1]!.key;
      break;
    }
    section++;
    after = undefined;
  }
  const has_more = section < sections.length;
  return {
    cursor: position.cursor || null,
    items,
    next_page_token: has_more
      ? encodeCursor({
          ...(listing === undefined ? {} : { of: listing }),
          cursor: position.cursor,
          section: String(section),
          ...(after === undefined ? {} : { after }),
        })
      : null,
    has_more,
  };
}

function decodeToken(
  token: string,
  sections: readonly SnapshotSection[],
  listing: string | undefined,
): { cursor: string; section: number; after: string | undefined } {
  const fields = decodeCursor(token, ['cursor', 'section'])!;
  const section = Number(fields.section);
  const forged = () =>
    new ApError(
      'invalid_cursor',
      'The page token is malformed; pass the next_page_token of the previous page unchanged.',
    );
  if (fields.of !== listing)
    throw new ApError(
      'invalid_cursor',
      'The page token belongs to another listing; pass the next_page_token of the previous page of this one.',
    );
  if (!Number.isInteger(section) || section < 0 || section > sections.length) throw forged();
  // The token is only encoded, not sealed: what it carries reaches typed columns, so check its form here.
  if (fields.cursor !== '' && !UUID.test(fields.cursor!)) throw forged();
  const after = fields.after;
  if (after !== undefined) {
    const keys = sections[section]?.keys ?? 'uuid';
    if (typeof after !== 'string' || after.includes('\u0000') || (keys === 'uuid' && !UUID.test(after))) throw forged();
  }
  return { cursor: fields.cursor!, section, after };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
