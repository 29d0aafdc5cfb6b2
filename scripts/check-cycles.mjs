// Fails when the folders of src/ import each other in a circle (core/run -> core/report -> core/run),
// or when two files import each other. Reads the import graph with TypeScript's own pre-processor
// (static, dynamic and type-only imports all count: each is a dependency a reader has to follow),
// so it takes well under a second, where eslint-plugin-import-x's no-cycle takes many.
//
// A folder is the first level under src/core and src/commands (core/http, commands/send…), and
// src/ui as a whole; a file directly in src/ or src/core (errors.ts, version.ts…) stands alone.
// Usage: node scripts/check-cycles.mjs [--graph]   (--graph prints the folder edges)
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(new URL('..', import.meta.url).pathname);
const src = join(root, 'src');

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `./x.js` as written in an import, to the .ts/.tsx file it names. */
function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(stem, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The folder a file belongs to, as named in messages. */
export function folderOf(file) {
  const parts = relative(src, file)
    .replace(/\.tsx?$/, '')
    .split('/');
  if (parts.length === 1) return parts[0];
  if (parts[0] === 'core') return `core/${parts[1]}`;
  if (parts[0] === 'commands') return parts.length === 2 ? `commands/${parts[1]}` : `commands/${parts[1]}/`;
  return parts[0];
}

/** Every file's relative imports, resolved to files. */
export function importGraph(files = listFiles(src)) {
  const graph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles.map((imported) => resolveImport(file, imported.fileName)).filter(Boolean);
    graph.set(file, new Set(targets));
  }
  return graph;
}

/** Strongly connected components with more than one member (Tarjan), each sorted. */
function cycles(edges) {
  let index = 0;
  const stack = [];
  const state = new Map();
  const found = [];
  const visit = (node) => {
    state.set(node, { index, low: index, onStack: true });
    index += 1;
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!state.has(next)) {
        visit(next);
        state.get(node).low = Math.min(state.get(node).low, state.get(next).low);
      } else if (state.get(next).onStack) {
        state.get(node).low = Math.min(state.get(node).low, state.get(next).index);
      }
    }
    if (state.get(node).low === state.get(node).index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        state.get(member).onStack = false;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return found;
}

/** The import that makes `from` depend on `to`, for the message. */
function example(graph, from, to) {
  for (const [file, targets] of graph) {
    if (folderOf(file) !== from) continue;
    for (const target of targets)
      if (folderOf(target) === to) return `${relative(root, file)} -> ${relative(root, target)}`;
  }
  return '';
}

export function findCycles(graph = importGraph()) {
  const folderEdges = new Map();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!folderEdges.has(from)) folderEdges.set(from, new Set());
    for (const target of targets) if (folderOf(target) !== from) folderEdges.get(from).add(folderOf(target));
  }
  const problems = [];
  for (const component of cycles(folderEdges)) {
    const lines = [];
    for (const from of component) {
      for (const to of folderEdges.get(from))
        if (component.includes(to)) lines.push(`  ${from} -> ${to}  (${example(graph, from, to)})`);
    }
    problems.push(`folder cycle: ${component.join(', ')}\n${lines.join('\n')}`);
  }
  for (const component of cycles(graph)) {
    if (new Set(component.map(folderOf)).size > 1) continue; // already reported as a folder cycle
    problems.push(`file cycle: ${component.map((file) => relative(root, file)).join(', ')}`);
  }
  return { problems, folderEdges };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const { problems, folderEdges } = findCycles();
  if (process.argv.includes('--graph')) {
    for (const [from, targets] of [...folderEdges].sort()) console.log(`${from} -> ${[...targets].sort().join(', ')}`);
  }
  if (problems.length > 0) {
    console.error(problems.join('\n\n'));
    console.error(`\n${problems.length} import cycle(s): see docs/architecture.md for the order of the folders.`);
    process.exitCode = 1;
  }
}
