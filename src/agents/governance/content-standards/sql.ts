import type { Queryable } from '../../../db/database.ts';
import { firstRow } from '../../../db/first-row.ts';
import { keysetQuery } from '../../runtime/index.ts';
import type { StandardsDefinition } from './standard.ts';

/** A stored content standards configuration. */
export interface StandardsRow {
  standards_id: string;
  owner: string;
  definition: StandardsDefinition;
  version: number;
  created_at: Date;
  updated_at: Date;
  seq: number;
}

const columns = 'standards_id, owner, definition, version, created_at, updated_at, seq::int as seq';

export async function insertStandards(
  db: Queryable,
  row: Pick<StandardsRow, 'standards_id' | 'owner' | 'definition' | 'created_at'>,
): Promise<StandardsRow> {
  const [inserted] = await db.query<StandardsRow>(
    `insert into governance_content_standards (standards_id, owner, definition, created_at, updated_at)
     values ($1, $2, $3, $4, $4) returning ${columns}`,
    [row.standards_id, row.owner, JSON.stringify(row.definition), row.created_at],
  );
  return inserted!;
}

/** The caller's standards; another's is not found, exactly as ones that do not exist. */
export async function standardsOf(db: Queryable, owner: string, id: string): Promise<StandardsRow | undefined> {
  return firstRow<StandardsRow>(
    db,
    `select ${columns} from governance_content_standards where owner = $1 and standards_id = $2`,
    [owner, id],
  );
}

/** Saves a new version of the caller's standards. */
export async function updateStandards(
  db: Queryable,
  owner: string,
  id: string,
  definition: StandardsDefinition,
  at: Date,
): Promise<StandardsRow | undefined> {
  return firstRow<StandardsRow>(
    db,
    `update governance_content_standards set definition = $3, version = version + 1, updated_at = $4
      where owner = $1 and standards_id = $2 returning ${columns}`,
    [owner, id, JSON.stringify(definition), at],
  );
}

/** What list_content_standards narrows by: standards applying on any of these channels, languages, countries. */
export interface StandardsFilter {
  channels?: string[] | undefined;
  languages?: string[] | undefined;
  countries?: string[] | undefined;
}

// A scope without channels or countries applies on all of them; languages_any is always there.
const matching = `owner = $1
  and ($2::text[] is null or not (definition->'scope' ? 'channels_any') or definition->'scope'->'channels_any' ?| $2::text[])
  and ($3::text[] is null or definition->'scope'->'languages_any' ?| $3::text[])
  and ($4::text[] is null or not (definition->'scope' ? 'countries_all') or definition->'scope'->'countries_all' ?| $4::text[])`;

/** The caller's standards matching `filter`, keyset-paged in their order of creation. */
export const standardsMatching = (db: Queryable, owner: string, f: StandardsFilter) =>
  keysetQuery<StandardsRow>(db, {
    table: 'governance_content_standards',
    columns,
    where: matching,
    params: [owner, f.channels ?? null, f.languages ?? null, f.countries?.map((c) => c.toUpperCase()) ?? null],
  });
