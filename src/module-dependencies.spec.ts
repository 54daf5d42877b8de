import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

// The folders of src/ and which others each one's code imports: features depend on the data
// layer (database) and on common, never the other way round, and never on each other both ways.

const SRC = join(process.cwd(), 'src');
const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;
// Cross-cutting folders that everything may import; they import no feature.
const FOUNDATIONS = new Set(['common', 'config']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The top-level folder of src/ a path is in, or null for a file of src/ itself. */
function folderOf(path: string): string | null {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? parts[0] : null;
}

/** Folder -> the other folders its files import, each with one file that does. */
function folderImports(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (from === null) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = folderOf(normalize(join(dirname(file), specifier)));
      if (to === null || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      graph.get(from)!.set(to, relative(SRC, file));
    }
  }
  return graph;
}

describe('module dependencies', () => {
  const graph = folderImports();

  it('has no two folders of src/ importing each other, directly or around a cycle', () => {
    const cycles: string[] = [];
    const visit = (folder: string, path: string[]): void => {
      for (const next of graph.get(folder)?.keys() ?? []) {
        if (next === path[0]) cycles.push([...path, next].join(' -> '));
        else if (!path.includes(next) && next > path[0]) visit(next, [...path, next]);
      }
    };
    for (const folder of graph.keys()) visit(folder, [folder]);
    expect(cycles).toEqual([]);
  });

  it('keeps common/ and config/ free of feature modules and the data layer', () => {
    const imported = [...FOUNDATIONS].flatMap((foundation) =>
      [...(graph.get(foundation) ?? new Map<string, string>())]
        .filter(([to]) => !FOUNDATIONS.has(to))
        .map(([to, file]) => `${file} -> ${to}`),
    );
    expect(imported).toEqual([]);
  });

  it('sees the imports it checks', () => {
    expect(graph.get('assets')?.has('database')).toBe(true);
  });
});
