/**
 * The longest text a substring search looks for (the `q` of `GET /api/search` and of the brand and
 * property listings). `ilike '%q%'` compares at each position of each row's text until a
 * character differs, so a longer `q` costs more on every row scanned.
 */
export const maxLikeText = 200;

/**
 * A case-insensitive substring pattern for `ilike ... escape '\'`, with `%`, `_` and `\` taken
 * literally. A longer text than `maxLikeText` (no route lets one through) is searched by its first
 * `maxLikeText` characters, so the pattern's cost never depends on what a caller sends.
 */
export function likePattern(q: string | undefined): string | null {
  if (q === undefined || q === '') return null;
  return `%${boundedText(q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The first `maxLikeText` characters (code points: a pair is never cut in two). */
function boundedText(q: string): string {
  if (q.length <= maxLikeText) return q;
  return Array.from(q.slice(0, 2 * maxLikeText))
    .slice(0, maxLikeText)
    .join('');
}
