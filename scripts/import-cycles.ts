// Fails when modules under a folder (src/ by default) import each other in a cycle. Run by
// `npm run lint`; test/scripts/import-cycles.test.ts shows it catching one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every cycle of imports among the `.ts` files under `root`, each as the files in import order. */
export function findImportCycles(root: string): string[][] {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => resolve(root, f));
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file).filter((f) => known.has(f))]));
  return stronglyConnected(graph)
    .filter((group) => group.length > 1 || graph.get(group[0]!)!.includes(group[0]!))
    .map((group) => cycleThrough(group, graph).map((f) => relative(root, f)));
}

/**
 * Relative imports and re-exports, type-only ones included: a type import still ties the two
 * modules' meaning together, and the cycle issue 14 found ran through one.
 */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name));
}

/** Tarjan's algorithm: the groups of files that can each reach every other in the group. */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      groups.push(group);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

/** One concrete loop inside a group, shortest from its first file, so the report reads as a path. */
function cycleThrough(group: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(group);
  const start = [...group].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const next of graph.get(queue[i]!)!) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [queue[i]!];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, queue[i]!);
        queue.push(next);
      }
    }
  }
  return group;
}

if (import.meta.main) {
  const root = process.argv[2] ?? join(import.meta.dirname, '..', 'src');
  const cycles = findImportCycles(root);
  for (const cycle of cycles) console.error(`import cycle: ${cycle.join(' -> ')}`);
  if (cycles.length) {
    console.error(
      `${cycles.length} import cycle(s) under ${relative(process.cwd(), root) || '.'}: break each by moving what both sides need to a module neither imports.`,
    );
    process.exit(1);
  }
}
