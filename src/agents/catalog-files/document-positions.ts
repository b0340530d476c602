import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { PathSegment } from '../../protocol/json-path.ts';

export interface Position {
  line: number;
  column: number;
  /** Offset in the text, to order problems as they appear. */
  offset: number;
}

/**
 * Where the value at `segments` is written: the key for a mapping entry (where a reader looks
 * for `floor_price:`), the item for a list entry. A path that does not exist all the way (a
 * missing required property) points at the deepest part that does. Aliases are followed to
 * their anchor, the only place the value is written.
 */
export function positionOf(doc: Document, lines: LineCounter, segments: readonly PathSegment[]): Position {
  let node: unknown = doc.contents;
  let offset = startOf(node) ?? 0;
  for (const segment of segments) {
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) break;
      offset = startOf(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item: unknown = node.items[segment];
      if (item === undefined) break;
      offset = startOf(item) ?? offset;
      node = item;
    } else {
      break;
    }
  }
  return positionAt(lines, offset);
}

export function positionAt(lines: LineCounter, offset: number): Position {
  const { line, col } = lines.linePos(offset);
  return { line, column: col, offset };
}

function startOf(node: unknown): number | undefined {
  return (node as Node | null | undefined)?.range?.[0];
}
