import { LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { PathSegment } from '../../protocol/json-path.ts';
import type { SchemaIssue } from '../../protocol/schemas.ts';
import { CatalogError, type CatalogProblem } from './catalog-error.ts';
import { positionAt, positionOf } from './document-positions.ts';
import { displayPath, pathSegments } from './issue-path.ts';

/** Enough to fix a file in one go without burying the first problem. */
const maxProblems = 20;

export type Report = (segments: readonly PathSegment[], message: string) => void;

/**
 * A catalog file read as data, with a place to collect what is wrong with it: each problem is
 * located at the line and column where the value at its path is written.
 */
export interface CatalogDocument {
  readonly source: string;
  /** The document as plain data (YAML, or JSON, which is YAML 1.2). */
  readonly value: unknown;
  /** Records a problem with the value at `segments` (`[]` for the document). */
  readonly report: Report;
  /** Records each issue of a schema validation of the value found at `at`. */
  reportSchemaIssues(at: readonly PathSegment[], issues: readonly Pick<SchemaIssue, 'path' | 'message'>[]): void;
  /** Throws a CatalogError listing every problem recorded, in the order they appear; returns when there is none. */
  throwIfProblems(): void;
}

type Located = CatalogProblem & { offset: number };

/**
 * Parses `text`; a syntax error, or an alias that cannot be resolved, throws a CatalogError at once.
 * A JSON file is read with JSON.parse (a 10,000-signal catalog in a fraction of the time the YAML
 * parser takes) and parsed as YAML only if it has a problem to locate.
 */
export function readCatalogDocument(text: string, source: string): CatalogDocument {
  let parsed: { doc: Document; lines: LineCounter } | undefined;
  const yamlDocument = () => (parsed ??= parseYaml(text, source));
  const json = asJson(text);
  const value = json ? json.value : yamlValue(yamlDocument(), source);

  const problems: Located[] = [];
  const report: Report = (segments, message) => {
    const { doc, lines } = yamlDocument();
    problems.push({ source, ...positionOf(doc, lines, segments), path: displayPath(segments), message });
  };
  return {
    source,
    value,
    report,
    reportSchemaIssues(at, issues) {
      for (const issue of issues) report([...at, ...(pathSegments(issue.path) ?? [])], issue.message);
    },
    throwIfProblems() {
      if (problems.length > 0) fail(problems);
    },
  };
}

/** The value of a text that is JSON (an object or array at the top); undefined for anything else, YAML included. */
function asJson(text: string): { value: unknown } | undefined {
  if (!/^\s*[{[]/.test(text)) return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    // YAML's flow style starts the same way; the YAML parser reads it, or says where it is wrong.
    return undefined;
  }
}

function parseYaml(text: string, source: string): { doc: Document; lines: LineCounter } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    fail(doc.errors.map((error) => ({ source, ...positionAt(lines, error.pos[0]), message: error.message })));
  }
  return { doc, lines };
}

function yamlValue({ doc, lines }: { doc: Document; lines: LineCounter }, source: string): unknown {
  try {
    return doc.toJS();
  } catch (error) {
    // Alias bombs and aliases used before their anchor surface only here.
    fail([
      {
        source,
        ...positionAt(lines, unresolvedAliasOffset(doc) ?? 0),
        message: error instanceof Error ? error.message : String(error),
      },
    ]);
  }
}

/**
 * The one list a catalog is made of (`products:`, `signals:`): the document must be a mapping
 * with that key alone, holding a non-empty list. Problems are recorded; the list (or nothing)
 * is returned so its items can still be checked.
 */
export function rootList(document: CatalogDocument, key: string, noun: string): unknown[] {
  const { value, report } = document;
  if (!isObject(value)) {
    report([], `must be a mapping with a \`${key}\` list`);
    return [];
  }
  for (const other of Object.keys(value)) if (other !== key) report([other], 'is not an allowed property here');
  const list = value[key];
  if (list === undefined) report([key], 'is required');
  else if (!Array.isArray(list)) report([key], `must be a list of ${key}`);
  else if (list.length === 0) report([key], `must list at least one ${noun}`);
  return Array.isArray(list) ? list : [];
}

/**
 * Records every item of the list at `listAt` whose string `idKey` repeats an earlier item's,
 * at the repeat, naming the first.
 */
export function reportRepeatedIds(
  report: Report,
  items: readonly unknown[],
  listAt: readonly PathSegment[],
  idKey: string,
): void {
  const listName = String(listAt.at(-1));
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const id = isObject(item) ? item[idKey] : undefined;
    if (typeof id !== 'string') return;
    const first = seen.get(id);
    if (first === undefined) seen.set(id, index);
    else report([...listAt, index, idKey], `${JSON.stringify(id)} is already the id of ${listName}[${first}]`);
  });
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function fail(problems: readonly Located[]): never {
  const ordered = [...problems].sort((a, b) => a.offset - b.offset);
  const shown = ordered.slice(0, maxProblems).map(({ offset: _offset, ...problem }) => problem);
  throw new CatalogError(shown, ordered.length - shown.length);
}

function unresolvedAliasOffset(doc: Document): number | undefined {
  let offset: number | undefined;
  visit(doc, {
    Alias(_key, alias) {
      if (alias.resolve(doc) !== undefined) return undefined;
      offset = alias.range?.[0];
      return visit.BREAK;
    },
  });
  return offset;
}
