/** A case-insensitive substring pattern for `ilike ... escape '\'`, with `%`, `_` and `\` taken literally. */
export function likePattern(q: string | undefined): string | null {
  if (q === undefined || q === '') return null;
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
